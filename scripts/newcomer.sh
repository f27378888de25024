#!/usr/bin/env bash
# A newcomer's first hour, as the README tells it (issue #43): a clean clone in an empty folder, the
# README's install route from a clone (npm pack, then a global install of the tarball into a prefix of
# its own, so `docplane` is on PATH), the five-minute demo against `docplane emulator --demo`, and
# the tests, all with a CPU-burning neighbour: two busy processes, one per core.
#
#   bash scripts/newcomer.sh                 # the whole path, `npm test` included (minutes)
#   bash scripts/newcomer.sh -- FILE...      # the same, with `npx vitest run FILE...` for `npm test`
#
# Exits non-zero at the first step that fails; prints `newcomer: green` at the end.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tests=()
if [ "${1:-}" = "--" ]; then shift; tests=("$@"); fi

work=$(mktemp -d)
burners=()
emulator=
cleanup() {
  for pid in "${burners[@]}" ${emulator:+"$emulator"}; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The neighbour: two processes that keep a core busy each until this script ends.
for _ in 1 2; do
  node -e 'for (;;) {}' &
  burners+=($!)
done

step() { echo "::: $*"; }

step "clone into an empty folder"
git clone -q "$repo" "$work/docplane"
cd "$work/docplane"
npm ci --no-audit --no-fund --loglevel=error

step "install from the clone: npm pack, npm i -g ./docplane-<version>.tgz"
tarball=$(npm pack --silent | tail -1)
# The route of docs/ci/gitlab-ci.md first: npx runs the tarball without installing it.
(cd "$work" && npm_config_cache="$work/npx-cache" npx --yes --package="$work/docplane/$tarball" docplane --version)
export npm_config_prefix="$work/global"
npm i -g --no-audit --no-fund --loglevel=error "./$tarball"
export PATH="$work/global/bin:$PATH"
command -v docplane
docplane --version

step "the five-minute demo (README), in an empty folder"
mkdir "$work/try" && cd "$work/try"
docplane emulator --demo --port 0 >"$work/emulator.log" 2>&1 &
emulator=$!
for _ in $(seq 1 600); do grep -q 'listening on' "$work/emulator.log" && break; sleep 0.1; done
url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/emulator.log" | head -1)
export DOCPLANE_API_URL="$url" DOCPLANE_TOKEN=dev-token NO_COLOR=1
docplane import --org org_acme --out docplane/
docplane validate -c docplane/ 2>"$work/validate.err"
cat "$work/validate.err"
if grep -q 'warning' "$work/validate.err"; then echo "newcomer: a fresh import does not validate cleanly"; exit 1; fi
docplane plan -c docplane/ --detailed-exitcode
node -e '
  const fs = require("fs");
  const f = "docplane/org_acme.yaml";
  fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/^teams:\n/m, "teams:\n  - title: Writers\n    members: [ bob@acme.com ]\n"));'
set +e
docplane plan -c docplane/ --out plan.json --detailed-exitcode
code=$?
set -e
[ "$code" -eq 2 ] || { echo "newcomer: the plan with a new team exited $code, not 2"; exit 1; }
docplane apply plan.json -c docplane/
docplane plan -c docplane/ --detailed-exitcode
kill "$emulator"; emulator=

step "the tests, beside two busy processes"
cd "$work/docplane"
if [ ${#tests[@]} -gt 0 ]; then
  npm run build --silent
  npx vitest run "${tests[@]}"
else
  npm test
fi
echo "newcomer: green"
