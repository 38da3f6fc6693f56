#!/usr/bin/env python3
"""Reads <build>/kit_programs.json (written at configure time by cmake/KitExport.cmake) for shell
scripts.

  manifest.py MANIFEST backend     the build's backend: CPU, CUDA or HIP
  manifest.py MANIFEST built       the programs this build compiles, one per line
"""
import json
import sys


def main(argv):
    if len(argv) != 3 or argv[2] not in ("backend", "built"):
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"{argv[1]}: cannot read the build manifest: {error}\n")
        return 2
    if argv[2] == "backend":
        print(manifest["backend"])
    else:
        for program in manifest["programs"]:
            if program["built"]:
                print(program["name"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
