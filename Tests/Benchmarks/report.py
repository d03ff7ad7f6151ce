"""Bookkeeping for Tests/Benchmarks/run (standard library only).

  report.py record RESULTS SERVER LOAD H2LOAD_OUTPUT H2LOAD_LOG CPU_TICKS VMHWM_KB [POSTGRES_CPU_TICKS]
      parses one h2load run (its output and --log-file) and appends a JSON line to RESULTS; with the CPU
      ticks of the PostgreSQL backends during the run, their CPU per call too
  report.py pgbench RESULTS LOAD PGBENCH_OUTPUT CPU_TICKS
      the same for a pgbench run (tps, latency average; CPU of the PostgreSQL backends)
  report.py amend-postgres RESULTS POSTGRES_CPU_TICKS
      adds the PostgreSQL backends' CPU per call to the last row, one kindred-social-bench appended
  report.py table RESULTS
      medians per (load, server) in a Markdown table the README can quote
"""

import json
import os
import re
import statistics
import sys

CLOCK_TICK_US = 1_000_000 / os.sysconf("SC_CLK_TCK")


def percentile(sorted_values, fraction):
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def record(results, server, load, output_path, log_path, cpu_ticks, vmhwm_kb, postgres_ticks=None):
    output = open(output_path).read()
    rate = re.search(r"finished in [\d.]+s, ([\d.]+) req/s", output)
    counts = re.search(r"requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                       r"(\d+) errored, (\d+) timeout", output)
    codes = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", output)
    if not (rate and counts and codes):
        sys.exit(f"cannot read h2load's output in {output_path}")
    # --log-file lines: start time (µs), HTTP status, time to the last byte (µs); status -1 marks a failure.
    durations = []
    with open(log_path) as log:
        for line in log:
            fields = line.split()
            if len(fields) == 3 and fields[1] == "200":
                durations.append(int(fields[2]))
    durations.sort()
    succeeded = int(counts.group(3))
    non_2xx = sum(int(codes.group(i)) for i in (2, 3, 4))
    row = {
        "server": server, "load": load, "rps": float(rate.group(1)),
        "p50_ms": percentile(durations, 0.50) / 1000 if durations else None,
        "p99_ms": percentile(durations, 0.99) / 1000 if durations else None,
        "failed": int(counts.group(4)) + int(counts.group(5)) + int(counts.group(6)) + non_2xx,
        "rss_mib": int(vmhwm_kb) / 1024,
        "cpu_us": int(cpu_ticks) * CLOCK_TICK_US / succeeded if succeeded else None,
        "postgres_cpu_us": int(postgres_ticks) * CLOCK_TICK_US / succeeded
        if succeeded and postgres_ticks is not None else None,
    }
    with open(results, "a") as out:
        out.write(json.dumps(row) + "\n")
    print(f"  {server:<8} {load:<16} {row['rps']:>10.0f} req/s  failed {row['failed']}  "
          f"p50 {fmt(row['p50_ms'], 2)} ms  p99 {fmt(row['p99_ms'], 2)} ms  "
          f"RSS {row['rss_mib']:.1f} MiB  CPU {fmt(row['cpu_us'], 1)} µs/call"
          + (f"  PostgreSQL CPU {row['postgres_cpu_us']:.1f} µs/call" if row["postgres_cpu_us"] is not None else ""))


def pgbench(results, load, output_path, cpu_ticks):
    output = open(output_path).read()
    tps = re.search(r"tps = ([\d.]+) \(without initial connection time\)", output)
    latency = re.search(r"latency average = ([\d.]+) ms", output)
    done = re.search(r"number of transactions actually processed: (\d+)", output)
    failed = re.search(r"number of failed transactions: (\d+)", output)
    if not (tps and latency and done):
        sys.exit(f"cannot read pgbench's output in {output_path}")
    row = {"server": "pgbench", "load": load, "rps": float(tps.group(1)), "p50_ms": None, "p99_ms": None,
           "avg_ms": float(latency.group(1)), "failed": int(failed.group(1)) if failed else 0, "rss_mib": None,
           "cpu_us": int(cpu_ticks) * CLOCK_TICK_US / int(done.group(1))}
    row["postgres_cpu_us"] = row["cpu_us"]
    with open(results, "a") as out:
        out.write(json.dumps(row) + "\n")
    print(f"  pgbench  {load:<16} {row['rps']:>10.0f} tps    failed {row['failed']}  "
          f"avg {row['avg_ms']:.2f} ms  PostgreSQL CPU {row['cpu_us']:.1f} µs/transaction")


def amend_postgres(results, postgres_ticks):
    """Adds PostgreSQL's CPU per call to the last row (a load generator's, which knows its successful calls)."""
    rows = [json.loads(line) for line in open(results)]
    row = rows[-1]
    row["postgres_cpu_us"] = int(postgres_ticks) * CLOCK_TICK_US / row["succeeded"] if row["succeeded"] else None
    with open(results, "w") as out:
        out.writelines(json.dumps(each) + "\n" for each in rows)
    print(f"  {'':<8} {row['load']:<16} PostgreSQL CPU {fmt(row['postgres_cpu_us'], 1)} µs/call")


def fmt(value, digits):
    return "—" if value is None else f"{value:.{digits}f}"


def table(results):
    rows = [json.loads(line) for line in open(results)]
    groups = {}
    for row in rows:
        groups.setdefault((row["load"], row["server"]), []).append(row)
    print("| load | server | runs | req/s | p50 ms | p99 ms | failed | peak RSS MiB | server CPU µs/call "
          "| PostgreSQL CPU µs/call |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (load, server), runs in groups.items():
        def median(key):
            values = [run[key] for run in runs if run.get(key) is not None]
            return statistics.median(values) if values else None
        p50 = fmt(median("p50_ms"), 2) if median("p50_ms") is not None else f"{fmt(median('avg_ms'), 2)} (avg)"
        print(f"| {load} | {server} | {len(runs)} | {median('rps'):.0f} | {p50} | {fmt(median('p99_ms'), 2)} "
              f"| {sum(run['failed'] for run in runs)} | {fmt(median('rss_mib'), 1)} | {fmt(median('cpu_us'), 1)} "
              f"| {fmt(median('postgres_cpu_us'), 1)} |")


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"record": record, "pgbench": pgbench, "amend-postgres": amend_postgres, "table": table}[command](*arguments)
