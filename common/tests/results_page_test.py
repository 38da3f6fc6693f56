#!/usr/bin/env python3
"""Tests of common/bench/results_page.py: the page the device script rewrites."""

import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "results_page.py")
ORDER = "common,prefix_sum,softmax,apsp,basics,whole_process"


class ResultsPage(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.page = os.path.join(self.dir.name, "gpu.md")

    def tearDown(self):
        self.dir.cleanup()

    def section(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def write(self, entries, lines=("GPU: X",), check=True):
        args = [sys.executable, SCRIPT, self.page, "--title", "GPU X", "--order", ORDER]
        for line in lines:
            args += ["--line", line]
        for e in entries:
            args += ["--entry", *e]
        result = subprocess.run(args, capture_output=True, text=True)
        if check:
            self.assertEqual(result.returncode, 0, result.stderr)
        return result

    def read(self):
        with open(self.page, encoding="utf-8") as f:
            return f.read()

    def test_a_rerun_replaces_its_sections_and_keeps_the_others(self):
        # A section whose output holds "## " lines: inside a fence, or naming no key of the
        # table, they never start a section.
        basics = self.section("basics",
                              "### Benchmark\n\n```\n## softmax\n```\n## Floors\nrow b1\n")
        softmax = self.section("softmax", "old softmax\n")
        self.write([("basics", "2026-01-01", "aaa1111", "CUDA", "device_run.sh basics", basics),
                    ("softmax", "2026-01-01", "aaa1111", "CUDA", "device_run.sh softmax", softmax)])
        first = self.read()
        self.assertIn("| basics | 2026-01-01 | aaa1111 | CUDA | `device_run.sh basics` |", first)
        # --order puts softmax before basics whatever the order of the entries.
        self.assertLess(first.index("## softmax\n\nold softmax"), first.index("## basics"))

        new_softmax = self.section("softmax2", "new softmax\n")
        self.write([("softmax", "2026-02-02", "bbb2222", "CUDA", "device_run.sh softmax",
                     new_softmax)], lines=("GPU: X, new driver",))
        second = self.read()
        self.assertIn("- GPU: X, new driver\n", second)
        self.assertNotIn("old softmax", second)
        self.assertIn("## softmax\n\nnew softmax\n", second)
        self.assertIn("| softmax | 2026-02-02 | bbb2222 | CUDA | `device_run.sh softmax` |", second)
        self.assertIn("| basics | 2026-01-01 | aaa1111 |", second)
        self.assertIn("### Benchmark\n\n```\n## softmax\n```\n## Floors\nrow b1\n", second)
        self.assertEqual(second.count("\n## softmax\n"), 2)  # the section and the fenced line
        self.assertEqual(second.count("| softmax |"), 1)

    def test_sections_of_other_scripts_stay_after_the_suites(self):
        self.write([("MI100 persona", "2026-01-01", "ccc3333", "CUDA", "persona_run.sh",
                     self.section("p", "persona text\n"))])
        self.write([("apsp", "2026-01-02", "ddd4444", "CUDA", "device_run.sh apsp",
                     self.section("a", "apsp text\n"))])
        page = self.read()
        self.assertLess(page.index("## apsp"), page.index("## MI100 persona"))
        self.assertIn("## MI100 persona\n\npersona text\n", page)

    def test_rewriting_without_entries_changes_nothing(self):
        self.write([("basics", "2026-01-01", "aaa1111", "HIP", "device_run.sh basics",
                     self.section("b", "\n\nrows\n\n\n"))])
        before = self.read()
        self.write([])
        self.assertEqual(self.read(), before)
        self.assertIn("## basics\n\nrows\n", before)

    def test_a_key_that_cannot_be_a_table_cell_is_refused(self):
        result = self.write([("a|b", "d", "c", "CUDA", "cmd", self.section("x", "t\n"))],
                            check=False)
        self.assertEqual(result.returncode, 2)
        self.assertFalse(os.path.exists(self.page))


if __name__ == "__main__":
    unittest.main()
