"""q= and q_frequency= in the Python package: the CLI's --q and --q-frequency bit for bit (a number,
an array, a .npy path), Q = inf giving the acoustic values, the exact adjoint, an inversion in the
attenuating medium, and the refusals (one line naming the value and the rule)."""
import numpy as np
import pytest

import revwave

SHAPE = (20, 20, 18)
SPONGE = dict(shape=SHAPE, boundary="sponge", backend="cpu")


def quality(shape=SHAPE):
    x = np.arange(shape[0])[:, None, None] + 0.5 * np.arange(shape[2])[None, None, :] + 0 * np.arange(shape[1])[None, :, None]
    return 20.0 + 15.0 * np.sin(0.3 * x)


@pytest.mark.parametrize("precision", ["float", "double"])
def test_gradient_with_attenuation_equals_the_cli(cli, tmp_path, precision):
    q = quality()
    np.save(tmp_path / "q.npy", q)
    j = cli.json("gradient", "--shape", "20,20,18", "--tn", "0.25", "--precision", precision, "--boundary", "sponge",
                 "--q", tmp_path / "q.npy", "--q-frequency", "9", "--out", tmp_path / "g.npy")
    r = revwave.gradient(**SPONGE, tn=0.25, precision=precision, q=q, q_frequency=9)
    assert r.objective == j["objective"]
    assert r.gradient.tobytes() == np.load(tmp_path / "g.npy").tobytes()
    by_path = revwave.gradient(**SPONGE, tn=0.25, precision=precision, q=tmp_path / "q.npy", q_frequency=9.0)
    assert by_path.gradient.tobytes() == r.gradient.tobytes()


def test_a_number_is_that_value_everywhere_and_infinity_is_acoustic():
    same = dict(**SPONGE, tn=0.15, dt=0.001)
    plain = revwave.forward(**same)
    assert np.array_equal(revwave.forward(**same, q=float("inf")).data, plain.data)
    number = revwave.forward(**same, q=30)
    array = revwave.forward(**same, q=np.full(SHAPE, 30.0))
    assert number.data.tobytes() == array.data.tobytes()
    assert np.abs(number.data - plain.data).max() > 0.01 * np.abs(plain.data).max()


def test_the_transpose_passes_the_dot_product_test_and_an_inversion_runs():
    r = revwave.adjtest(**SPONGE, q=quality())
    assert r["pass"] and r["relative_error"] < 1e-12
    inv = revwave.invert(velocity=2000.0, **SPONGE, tn=0.2, src=[[100, 100, 20]], rec=[[60, 60, 20]], q=30,
                         vmin=1500, vmax=3000, iterations=1)
    assert np.isfinite(inv.model).all()


def test_bad_quality_factors_are_refused_naming_the_value_and_the_rule():
    with pytest.raises(revwave.InputError, match=r"--q 3 is invalid: Q must be a number of at least 5"):
        revwave.forward(**SPONGE, tn=0.05, q=3)
    with pytest.raises(revwave.InputError, match=r"--boundary sponge"):
        revwave.forward(shape=SHAPE, tn=0.05, q=30)
    with pytest.raises(revwave.InputError, match=r"q has shape \(3, 3, 3\), the model is \(20, 20, 18\)"):
        revwave.forward(**SPONGE, tn=0.05, q=np.full((3, 3, 3), 30.0))
    with pytest.raises(revwave.InputError, match=r"--q-frequency 10 Hz needs --q"):
        revwave.forward(**SPONGE, tn=0.05, q_frequency=10)
