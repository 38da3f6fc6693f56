#!/usr/bin/env python3
"""The local judge's own flow (basics/judge/judge.py) without a GPU or a GPU compiler: a stand-in
compiler writes the library, a stand-in judge_host lists, passes and times the cases. Checks the
verdict and exit status of an accepted solution when the kit's own program is not built (its
timing is said to be unavailable, and why), and the suggestion for a misspelt problem name."""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
JUDGE = os.path.join(HERE, "..", "judge.py")
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

FAKE_COMPILER = """#!/bin/sh
# Writes the file after -o, as a compiler would.
while [ $# -gt 0 ]; do [ "$1" = -o ] && : >"$2"; shift; done
"""
FAKE_JUDGE_HOST = """#!/bin/sh
# judge_host PROBLEM LIBRARY (--list | --case LABEL --seed S | --bench --seed S)
case $3 in
--list) printf 'example\\nfunctional-1\\n' ;;
--case) echo "PASS $4 (0.01 s)" ;;
--bench) echo 'RESULT|vector_add|25000000|0.5000|copy|0.4500|ok'; echo 'FROM_IDLE|x|0.6000' ;;
esac
"""


def executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class JudgeTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        work = self.work.name
        executable(os.path.join(work, "nvcc"), FAKE_COMPILER)
        executable(os.path.join(work, "judge_host"), FAKE_JUDGE_HOST)
        os.mkdir(os.path.join(work, "programs"))  # the kit's programs: none built
        self.config = os.path.join(work, "config.json")
        with open(self.config, "w") as f:
            json.dump({"backend": "CUDA", "compiler": os.path.join(work, "nvcc"),
                       "architectures": "90", "root": ROOT,
                       "judge_host": os.path.join(work, "judge_host"),
                       "programs": os.path.join(work, "programs")}, f)
        self.solution = os.path.join(work, "mine.cu")
        with open(self.solution, "w") as f:
            f.write('extern "C" void solve(const float* A, const float* B, float* C, int N) {}\n')

    def tearDown(self):
        self.work.cleanup()

    def judge(self, *args):
        return subprocess.run([sys.executable, JUDGE, "--config", self.config, *args],
                              capture_output=True, text=True, timeout=60)

    def test_accepted_without_the_kits_program(self):
        result = self.judge("vector_add", self.solution)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertIn("verdict: 2 of 2 cases passed: ACCEPTED", result.stdout)
        self.assertIn("your solve:  0.6000 ms as the judge times it", result.stdout)
        self.assertRegex(result.stdout, r"kit's solve: not timed: the kit's program \S+"
                         r"/programs/vector_add is not built \(cmake --build <build> --target "
                         r"basics_vector_add\)")

    def test_misspelt_problem_suggests_close_names(self):
        result = self.judge("histogram", self.solution)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, "")
        self.assertEqual(result.stderr.strip(), "judge: no problem named histogram "
                         "(basics/problems.txt lists them); did you mean histogramming?")

    def test_unknown_problem_without_close_names(self):
        result = self.judge("zzzzzz", self.solution)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr.strip(),
                         "judge: no problem named zzzzzz (basics/problems.txt lists them)")


if __name__ == "__main__":
    unittest.main()
