"""What each action of the load test's standard mix costs the stack, one action at a time (Tests/Benchmarks/action-costs).

Each step is a whole `kindred-loadtest run` in which one persona does only that action and every other persona only
`getMe`; a first step where everyone does `getMe` is the reference. pg_stat_statements is reset before each step and
read after it, by database role. An action's cost is its step's figures minus the reference's, per call of the
action's RPCs (an action may make several: viewGallery is ListPhotos then DownloadPhoto), and the reference's own
getMe calls are taken out in proportion: PostgreSQL's CPU per getMe is read off the reference. So the figures are
differences of two runs on a shared machine, good to a few tens of microseconds; compare actions, not decimals.

Usage (through the wrapper): action_costs.py REPO RUN_DIR [ACTION ...]; the wrapper passes the tool's arguments in
KINDRED_ACTION_COSTS_TOOL_ARGS and a command that runs SQL as the superuser in KINDRED_ACTION_COSTS_PSQL.
"""

import json
import os
import shlex
import subprocess
import sys

SERVICES = ("family", "social", "gamification", "identity")
REFERENCE = "getMe"


def psql(sql):
    command = shlex.split(os.environ["KINDRED_ACTION_COSTS_PSQL"]) + [sql]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()


def statements_by_role():
    rows = psql(
        "SELECT r.rolname, sum(s.calls) FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid "
        "WHERE r.rolname LIKE 'kindred\\_%' GROUP BY r.rolname"
    )
    counts = {}
    for row in rows.splitlines():
        role, calls = row.split("|")
        counts[role.removeprefix("kindred_")] = int(calls)
    return counts


def step(repo, run_dir, label, mix):
    mix_file = os.path.join(run_dir, label + ".mix.json")
    report_file = os.path.join(run_dir, label + ".json")
    with open(mix_file, "w") as out:
        json.dump(mix, out)
    psql("SELECT pg_stat_statements_reset()")
    tool = os.path.join(repo, ".build/release/kindred-loadtest")
    arguments = shlex.split(os.environ.get("KINDRED_ACTION_COSTS_TOOL_ARGS", ""))
    with open(os.path.join(run_dir, label + ".txt"), "w") as log:
        subprocess.run([tool, "run", "--mix", mix_file, "--json", report_file] + arguments, cwd=repo, stdout=log,
                       stderr=subprocess.STDOUT)
    with open(report_file) as report:
        return json.load(report), statements_by_role()


def calls(report, names):
    return sum(rpc["count"] for path, rpc in report["rpcs"].items() if path.rsplit("/", 1)[-1] in names)


def main():
    repo, run_dir, *only = sys.argv[1:]
    os.makedirs(run_dir, exist_ok=True)
    with open(os.path.join(repo, "Tests/LoadTest/mix.json")) as standard:
        personas = json.load(standard)
    reference_mix = {persona: {REFERENCE: 1} for persona in personas}
    reference, reference_statements = step(repo, run_dir, REFERENCE, reference_mix)
    reference_getme = calls(reference, {"GetMe"})
    other = {"GetMe", "Token"}
    # PostgreSQL's CPU a call of the reference (getMe and the session resumes): what a getMe fewer saves.
    postgres_per_getme = reference["cpu"]["postgresql"]["cpu_s"] / max(1, calls(reference, other))

    actions = []
    for persona, weights in personas.items():
        for action in weights:
            if action in (REFERENCE, "signInWithPassword") or action in (a for a, _ in actions):
                continue
            if not only or action in only:
                actions.append((action, persona))

    print("| action | its RPCs' calls | PostgreSQL µs | family µs | social µs | gamification µs | "
          "statements: family / social / gamification |")
    print("|---|---|---|---|---|---|---|")
    for action, persona in actions:
        mix = dict(reference_mix)
        mix[persona] = {action: 1}
        report, statements = step(repo, run_dir, action, mix)
        own = {path.rsplit("/", 1)[-1] for path in report["rpcs"]} - other
        count = calls(report, own)
        if count == 0:
            print(f"| {action} | 0 (see {run_dir}/{action}.txt) | | | | | |")
            continue
        fewer_getme = reference_getme - calls(report, {"GetMe"})
        cpu = {name: report["cpu"][name]["cpu_s"] - reference["cpu"][name]["cpu_s"]
               for name in ("postgresql",) + SERVICES if name in report["cpu"] and name in reference["cpu"]}
        cpu["postgresql"] = cpu.get("postgresql", 0) + fewer_getme * postgres_per_getme

        def per_call(name):
            return f"{cpu[name] / count * 1e6:.0f}" if name in cpu else ""

        def statements_per_call(role):
            return f"{(statements.get(role, 0) - reference_statements.get(role, 0)) / count:.1f}"

        print(f"| {action} ({', '.join(sorted(own))}) | {count} | {per_call('postgresql')} | {per_call('family')} | "
              f"{per_call('social')} | {per_call('gamification')} | {statements_per_call('family')} / "
              f"{statements_per_call('social')} / {statements_per_call('gamification')} |", flush=True)


if __name__ == "__main__":
    main()
