"""free_surface= in the Python package: the CLI's --free-surface bit for bit, a receiver on the
surface records zero, the adjoint test holds, and bad values are refused."""
import numpy as np
import pytest

import revwave

SMALL = dict(shape=(16, 14, 12), tn=0.08, nbl=5)
CLI_SMALL = ["--shape", "16,14,12", "--tn", "0.08", "--nbl", "5"]
SRC = [(60.0, 50.0, 20.0)]
REC = [(40.0, 50.0, 0.0), (80.0, 50.0, 15.0)]


def test_forward_equals_cli_and_records_zero_on_the_surface(cli, tmp_path):
    rec = revwave.forward(**SMALL, free_surface=True, src=SRC, rec=REC)
    assert np.all(rec.data[:, 0] == 0) and np.any(rec.data[:, 1] != 0)
    cli("forward", *CLI_SMALL, "--free-surface", "--src", "60,50,20", "--rec", "40,50,0", "--rec", "80,50,15",
        "--out", tmp_path / "fs.npy")
    theirs = revwave.ShotRecord.load(tmp_path / "fs.npy")
    assert theirs.data.tobytes() == rec.data.tobytes()
    plain = revwave.forward(**SMALL, src=SRC, rec=REC)
    assert plain.data.tobytes() != rec.data.tobytes()


def test_adjtest_holds():
    r = revwave.adjtest(**SMALL, free_surface=True, src=[(60.0, 50.0, 5.0)], rec=REC)
    assert r["relative_error"] < 1e-12


def test_bad_values_are_refused():
    with pytest.raises(revwave.InputError, match="free_surface 'yes' is not a bool"):
        revwave.forward(**SMALL, free_surface="yes", src=SRC, rec=REC)
    with pytest.raises(revwave.InputError, match="lies on the free surface z = 0"):
        revwave.forward(**SMALL, free_surface=True, src=[(60.0, 50.0, 0.0)], rec=REC)
