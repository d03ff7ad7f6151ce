"""The overload benchmark's table: one row per `kindred-loadtest run --json` of Tests/Benchmarks/overload, the
first at the rate the stack serves (the reference), the others at multiples of it.

    overload_report.py RATE_1.json RATE_2.json …

Per run: the rate asked, the goodput (calls answered, not refused, per second of the run), calls refused with
SERVER_OVERLOADED, calls the tool's clients refused themselves (CLIENT_THROTTLED, `--client-throttle`), other failures (a deadline, a dropped connection: what shedding exists to prevent), the
worst RPC p99 and the median of the RPCs' p99s (of the calls answered, timed from their due time; the mix's
expected refusals count in them, shed calls do not), how fast the slowest RPC's shed calls were refused (p99, from their send: `shed_p99_ms`), real-time
deliveries missed and their p99, CPU a call of each service and PostgreSQL, and the tool's lag. A run with
`--surge` gets a row in a second table instead: each part (before, during and after the surge) answered per second,
shed, its p99 and its seconds over budget, and how many seconds after the surge the run was back within budget.
"""

import json
import statistics
import sys

SERVICES = ("family", "gamification", "identity", "social", "postgresql")
MIN_CALLS = 100  # an RPC with fewer calls in a run (password sign-ins) says little about its p99


def refused(rpc, reason):
    return rpc.get("failures", {}).get("UNAVAILABLE", {}).get(reason, 0)


def row(report):
    rpcs = report["rpcs"].values()
    calls = sum(rpc["count"] for rpc in rpcs)
    shed = sum(refused(rpc, "SERVER_OVERLOADED") for rpc in rpcs)
    throttled = sum(refused(rpc, "CLIENT_THROTTLED") for rpc in rpcs)
    failed = sum(rpc["failed"] for rpc in rpcs) - shed - throttled
    judged = [rpc["p99_ms"] for rpc in rpcs if rpc["count"] >= MIN_CALLS]
    realtime = report["realtime"]
    cpu = report.get("cpu", {})
    return {
        "rate": report["generator"]["rate"],
        "goodput": (calls - shed - throttled - failed) / report["duration_s"],
        "shed": shed,
        "throttled": throttled,
        "failed": failed,
        "worst_p99": max(judged, default=0.0),
        "median_p99": statistics.median(judged) if judged else 0.0,
        "shed_p99": max((rpc.get("shed_p99_ms", 0.0) for rpc in rpcs), default=0.0),
        "missed": realtime["missed"],
        "realtime_p99": realtime["p99_ms"],
        "cpu": " / ".join(f"{cpu[name]['ms_per_call'] * 1000:.0f}" if name in cpu else "–" for name in SERVICES),
        "lag_p99": report["generator"]["lag_p99_ms"],
    }


def surge_rows(reports):
    surges = [report["surge"] for report in reports if report.get("surge")]
    if not surges:
        return
    print()
    print("| surge | before: answered/s, shed, p99 ms, seconds over budget | during | after | back within budget after |")
    print("|" + "---|" * 5)
    for surge in surges:
        parts = [surge[name] for name in ("before", "during", "after")]
        back = surge["recovered_after_s"]
        print(f"| {surge['rate']:,.0f}/s from {surge['from_s']:.0f} s for {surge['length_s']:.0f} s | "
              + " | ".join(f"{part['answered_per_s']:,.0f}, {part['shed']:,}, {part['p99_ms']:.0f}, {part['seconds_over_budget']} of {part['seconds']}"
                           for part in parts)
              + f" | {'not within the run' if back is None else f'{back} s'} (p99 {surge['budget_ms']:.0f} ms, {surge['settle_s']} s in a row) |")


def main(paths):
    reports = []
    for path in paths:
        with open(path) as file:
            reports.append(json.load(file))
    print("| rate asked | goodput/s | refused (SERVER_OVERLOADED) | throttled by the client | other failures | worst RPC p99 ms | median RPC p99 ms"
          " | refused within, p99 ms (worst RPC) | real-time missed | real-time p99 ms | CPU µs a call: " + " / ".join(SERVICES) + " | tool lag p99 ms |")
    print("|" + "---|" * 12)
    for report in (report for report in reports if not report.get("surge")):
        r = row(report)
        print(f"| {r['rate']:,} | {r['goodput']:,.0f} | {r['shed']:,} | {r['throttled']:,} | {r['failed']:,} | {r['worst_p99']:.0f}"
              f" | {r['median_p99']:.0f} | {r['shed_p99']:.1f} | {r['missed']:,} | {r['realtime_p99']:.0f} | {r['cpu']} | {r['lag_p99']:.1f} |")

    surge_rows(reports)


if __name__ == "__main__":
    main(sys.argv[1:])
