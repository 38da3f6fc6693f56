#!/usr/bin/env bash
# The HIP compiler launcher of a build configured with -DKIT_HIP_RESOURCE_USAGE=ON
# (cmake/KitBackend.cmake): runs one compile with the compiler's resource-usage remarks on
# (-Rpass-analysis=kernel-resource-usage) and writes them to <object>.resource-usage, whose first
# line names the source, so that cmake/hip_resource_usage.sh can read every kernel's registers,
# spills and scratch from the build itself (BUILD_DIR=...) instead of compiling the sources again.
# Every other message of the compiler passes through to stderr; the exit status is the compiler's.
#
#   hip_resource_remarks.sh COMPILER ARGS...      (CMake: <LANG>_COMPILER_LAUNCHER)
set -uo pipefail
object='' source=''
args=("$@")
for ((i = 1; i < ${#args[@]} - 1; i++)); do
  case ${args[i]} in
  -o) object=${args[i + 1]} ;;
  -c) source=${args[i + 1]} ;;
  esac
done
if [ -z "$object" ] || [ -z "$source" ]; then
  exec "$@" # not a compile to an object (a probe, a link): nothing to record
fi
messages=$(mktemp) || exit 1
trap 'rm -f "$messages"' EXIT
"$@" -Rpass-analysis=kernel-resource-usage 2>"$messages"
status=$?
# A remark is one line, after the include stack of its location and before that location's
# source line and caret (printed with the first remark there only); every other diagnostic keeps
# its lines, include stack included.
awk -v remarks="$object.resource-usage" -v source="$source" '
  BEGIN { print "source: " source > remarks }
  /^In file included from / || /^ +from .*:[0-9]+:$/ { held = held $0 "\n"; next }
  /\[-Rpass-analysis=kernel-resource-usage\]$/ { print > remarks; held = ""; skip = 2; next }
  skip > 0 && !/^[^ ]+:[0-9]+:[0-9]+: / { --skip; next }
  { skip = 0; printf "%s", held > "/dev/stderr"; held = ""; print > "/dev/stderr" }
  END { printf "%s", held > "/dev/stderr" }
' "$messages"
exit "$status"
