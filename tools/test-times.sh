#!/usr/bin/env bash
# Runs each test of the integration binary alone, one after the other,
# and prints its wall-clock seconds and the CPU-seconds the whole machine
# spent meanwhile, the most CPU first. The machine's busy time (from
# /proc/stat) counts the learners' sessions, which a test's own getrusage
# misses when a grader kills them; so keep the machine otherwise idle.
# Takes about as long as the tests' times added up (20 minutes on two
# cores). A test that fails is marked FAILED.
#
#   tools/test-times.sh [FILTER]   only the tests whose names hold FILTER
set -euo pipefail
cd "$(dirname "$0")/.."

binary=$(cargo test --test it --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("executable") and m["target"]["name"] == "it":
        print(m["executable"])')

busy() {
  # user, nice, system, irq, softirq and steal jiffies of every CPU.
  awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

hz=$(getconf CLK_TCK)
"$binary" --list 2>/dev/null | sed -n 's/: test$//p' | grep -F -- "${1:-}" |
  while read -r name; do
    before=$(busy)
    started=$(date +%s.%N)
    status=ok
    "$binary" --exact "$name" --test-threads=1 </dev/null >/dev/null 2>&1 || status=FAILED
    ended=$(date +%s.%N)
    after=$(busy)
    awk -v a="$started" -v b="$ended" -v c="$((after - before))" -v hz="$hz" \
      -v n="$name" -v s="$status" 'BEGIN { printf "%8.1f %8.1f %s %s\n", c / hz, b - a, n, s }'
  done | sort -rn | awk 'BEGIN { print "     cpu     wall test" } { print; c += $1; w += $2 }
    END { printf "%8.1f %8.1f in all\n", c, w }'
