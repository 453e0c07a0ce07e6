"""Nothing lost, nothing silent (#45) from Python: an output that names an input is refused before the run.

Small grids and few steps: the whole file runs in seconds on two cores.
"""
import numpy as np
import pytest

import revwave

SMALL = dict(shape=(12, 12, 12), tn=0.1, threads=1, boundary="sponge", nbl=4)


def test_a_survey_written_over_its_model_is_refused_before_the_run(tmp_path):
    np.save(tmp_path / "m.npy", np.full(SMALL["shape"], 2000.0))
    kw = {k: v for k, v in SMALL.items() if k != "shape"}
    before = (tmp_path / "m.npy").read_bytes()
    with pytest.raises(revwave.InputError, match="would overwrite --model"):
        revwave.forward_survey(tmp_path / "m.npy", src=[[40.0, 40.0, 20.0]], out=tmp_path / "m.npy", **kw)
    assert (tmp_path / "m.npy").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npy"]
