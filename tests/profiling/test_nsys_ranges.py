#!/usr/bin/env python3
"""profiling/nsys_ranges.py (the nsys phase of profiling/gpu_check.sh) against hand-made
`nsys stats --report nvtx_sum --format csv` outputs (tests/profiling/nsys/): every range with the
predicted count passes; a missing range or a wrong count fails naming it; bad input exits 2."""
import json
import subprocess
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "profiling"))
import nsys_ranges  # noqa: E402

DATA = HERE / "nsys"


def run(csv_name, json_path=DATA / "gradient.json"):
    return subprocess.run([sys.executable, str(ROOT / "profiling" / "nsys_ranges.py"), str(DATA / csv_name), str(json_path)],
                          capture_output=True, text=True)


class NsysRanges(unittest.TestCase):
    def test_counts_read_from_the_csv_after_the_preamble(self):
        counts = nsys_ranges.range_counts((DATA / "nvtx_sum_pass.csv").read_text())
        self.assertEqual(counts, {"forward": 731, "reverse": 400, "store": 7, "spill": 7, "restore": 7, "prefetch": 7})

    def test_predicted_counts_from_the_gradient_json(self):
        summary = json.loads((DATA / "gradient.json").read_text())
        predicted = nsys_ranges.predicted_counts(summary)
        # forward_steps count the advances and the reverse steps; the forward range marks an advance.
        self.assertEqual(predicted["forward"], summary["predicted_forward_steps"] - summary["steps"])
        self.assertEqual(predicted["reverse"], summary["steps"])
        for name in ("store", "spill", "restore", "prefetch"):
            self.assertEqual(predicted[name], summary["cuda"]["host_slots"])

    def test_matching_timeline_passes(self):
        r = run("nvtx_sum_pass.csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("every count as the schedule predicts", r.stdout)

    def test_missing_range_fails_naming_it(self):
        r = run("nvtx_sum_no_prefetch.csv")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("range prefetch: missing from the timeline (predicted 7)", r.stderr)
        self.assertEqual(r.stderr.count("nsys_ranges:"), 1, r.stderr)

    def test_wrong_count_fails_naming_it(self):
        r = run("nvtx_sum_wrong_forward.csv")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("range forward: 730 instances, predicted 731", r.stderr)

    def test_run_without_pinned_checkpoints_is_refused(self):
        summary = json.loads((DATA / "gradient.json").read_text())
        summary["cuda"]["host_slots"] = 0
        with self.assertRaisesRegex(nsys_ranges.InputError, "placement.host_slots 0"):
            nsys_ranges.predicted_counts(summary)
        summary["backend"] = "cpu"
        with self.assertRaisesRegex(nsys_ranges.InputError, "not cuda"):
            nsys_ranges.predicted_counts(summary)

    def test_csv_without_the_table_exits_2(self):
        r = run("gradient.json")  # JSON where the CSV belongs
        self.assertEqual(r.returncode, 2)
        self.assertIn("no nvtx_sum table", r.stderr)


if __name__ == "__main__":
    unittest.main()
