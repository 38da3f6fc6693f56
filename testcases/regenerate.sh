#!/usr/bin/env bash
# Rewrites the committed cases testcases/<problem>/<n>.in/.out from cases.txt with the gen tool.
#   testcases/regenerate.sh <path-to-gen> [output-root]   (output-root defaults to testcases/)
set -euo pipefail
gen=${1:?usage: regenerate.sh <path-to-gen> [output-root]}
here=$(cd "$(dirname "$0")" && pwd)
root=${2:-$here}
while read -r problem number args; do
  [[ -z "$problem" || "$problem" == \#* ]] && continue
  mkdir -p "$root/$problem"
  # shellcheck disable=SC2086 # the gen arguments are meant to split
  "$gen" "$problem" $args "$root/$problem/$number"
done < "$here/cases.txt"
