#!/usr/bin/env bash
# Stale repository paths (a stage of .ci/test_all.sh): every repository path that a tracked
# Markdown file, or a comment in C, C++, CUDA, CMake, shell or Python, mentions must exist,
# relative to the repository root, to the mentioning file's folder or to an include root
# (`common/`, `basics/`). What counts as a path and what is never checked (URLs, absolute paths,
# placeholders such as `<problem>/tuning.h`, build and export outputs, other projects' paths,
# paths tied to a named commit) is listed at the top of .ci/check_paths.py, which first checks
# those rules on fixed lines. Prints `FILE:LINE: missing path 'PATH'` per stale mention and ends
# with `check_paths: N passed, M failed (F files scanned)`; exit 1 on any failure. About a second.
#   bash .ci/check_paths.sh [--verbose]     (--verbose also lists every path that passed)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
python3 .ci/check_paths.py --self-test || exit 1
python3 .ci/check_paths.py "$@"
