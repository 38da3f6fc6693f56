#!/usr/bin/env python3
"""Runs the local judge on one solution file and checks its verdict (a CTest of basics/judge/).

    check_verdict.py EXIT_STATUS REGEX JUDGE PROBLEM SOLUTION [judge options]

Passes when the judge exits with EXIT_STATUS (0 accepted, 1 rejected, 2 not compiled) and its
output matches REGEX, the reason a user needs to see; exits 77 (skip) when the judge finds no GPU.
"""
import re
import subprocess
import sys


def main():
    expected, pattern, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    result = subprocess.run(command, capture_output=True, text=True)
    output = result.stdout + result.stderr
    print(output, end="")
    if result.returncode == 77:
        return 77
    if result.returncode != expected:
        print(f"check_verdict: the judge exited with {result.returncode}, expected {expected}")
        return 1
    if not re.search(pattern, output):
        print(f"check_verdict: the judge's output does not say /{pattern}/")
        return 1
    print(f"check_verdict: exit {expected} and /{pattern}/ as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
