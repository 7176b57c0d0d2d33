#!/bin/bash
# The test suite's time as CI meets it: a clean clone of a commit, Tapete installed as the
# README's run command leaves it, then `make test`, timed, with the whole machine's CPU
# (every process: the browsers and the test servers too) from /proc/stat. On a machine at
# rest; figures go in bench/RESULTS.md.
#
#   bash bench/suite_time.sh [REV]      # (a clone in ../suite-time, its log in /tmp)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
work="$root/../suite-time"
rm -rf "$work" && git clone -q "$root" "$work" && cd "$work" && git checkout -q "$rev"
make -s .venv/.installed >/dev/null 2>&1
cpu() { read -r _ u n s _ _ q sq _ < /proc/stat; echo $((u + n + s + q + sq)); }
cpu0=$(cpu); start=$(date +%s)
make test > /tmp/suite_time.log 2>&1
rc=$?
end=$(date +%s); cpu1=$(cpu)
echo "$(git rev-parse --short HEAD): make test exit $rc, $((end - start)) s, machine CPU $(((cpu1 - cpu0) / 100)) s (log: /tmp/suite_time.log)"
