"""epsilon= and delta= in the Python package: the CLI's --epsilon and --delta bit for bit (a number,
an array, a .npy path), epsilon = delta = 0 giving the isotropic values, the pair's exact adjoint,
and the refusals (one line naming the value and the rule)."""
import numpy as np
import pytest

import revwave

SHAPE = (20, 20, 18)
SPONGE = dict(shape=SHAPE, boundary="sponge", backend="cpu")


def anisotropy(shape=SHAPE):
    x = np.arange(shape[0])[:, None, None] + 0.5 * np.arange(shape[2])[None, None, :] + 0 * np.arange(shape[1])[None, :, None]
    epsilon = 0.1 + 0.1 * np.sin(0.3 * x)
    return epsilon, 0.5 * epsilon


@pytest.mark.parametrize("precision", ["float", "double"])
def test_gradient_with_anisotropy_equals_the_cli(cli, tmp_path, precision):
    epsilon, delta = anisotropy()
    np.save(tmp_path / "eps.npy", epsilon)
    np.save(tmp_path / "delta.npy", delta)
    j = cli.json("gradient", "--shape", "20,20,18", "--tn", "0.25", "--precision", precision, "--boundary", "sponge",
                 "--epsilon", tmp_path / "eps.npy", "--delta", tmp_path / "delta.npy", "--out", tmp_path / "g.npy")
    r = revwave.gradient(**SPONGE, tn=0.25, precision=precision, epsilon=epsilon, delta=delta)
    assert r.objective == j["objective"]
    assert r.gradient.tobytes() == np.load(tmp_path / "g.npy").tobytes()
    by_path = revwave.gradient(**SPONGE, tn=0.25, precision=precision, epsilon=tmp_path / "eps.npy",
                               delta=str(tmp_path / "delta.npy"))
    assert by_path.gradient.tobytes() == r.gradient.tobytes()


def test_a_number_is_that_value_everywhere_and_zero_is_isotropic():
    same = dict(**SPONGE, tn=0.15, dt=0.001)
    plain = revwave.forward(**same)
    zero = revwave.forward(**same, epsilon=0, delta=0.0)
    assert np.array_equal(zero.data, plain.data)
    number = revwave.forward(**same, epsilon=0.2)  # delta 0 unless given
    array = revwave.forward(**same, epsilon=np.full(SHAPE, 0.2), delta=np.zeros(SHAPE))
    assert number.data.tobytes() == array.data.tobytes()
    assert np.abs(number.data - plain.data).max() > 0.05 * np.abs(plain.data).max()


def test_the_data_of_a_true_model_are_modelled_in_the_same_anisotropy():
    # A true model given (and a start model): the observed data are the VTI record of the true model.
    epsilon, delta = anisotropy()
    true = np.full(SHAPE, 2300.0)
    true[:, :, 9:] = 2600.0
    same = dict(**SPONGE, tn=0.25, precision="double", epsilon=epsilon, delta=delta)
    record = revwave.forward(true, **same)
    by_truth = revwave.gradient(velocity=2300.0, true_model=true, **same)
    by_record = revwave.gradient(np.full(SHAPE, 2300.0), observed=record, **SPONGE, precision="double",
                                 epsilon=epsilon, delta=delta)
    assert by_truth.objective == by_record.objective
    assert by_truth.gradient.tobytes() == by_record.gradient.tobytes()


def test_the_pairs_transpose_passes_the_dot_product_test():
    epsilon, delta = anisotropy()
    r = revwave.adjtest(**SPONGE, epsilon=epsilon, delta=delta)
    assert r["pass"] and r["relative_error"] < 1e-12


def test_bad_anisotropy_is_refused_naming_the_value_and_the_rule():
    with pytest.raises(revwave.InputError, match=r"epsilon 0\.1 < delta 0\.2 at \(0, 0, 0\).*give epsilon >= delta"):
        revwave.forward(**SPONGE, tn=0.05, epsilon=0.1, delta=0.2)
    with pytest.raises(revwave.InputError, match=r"--boundary sponge"):
        revwave.forward(shape=SHAPE, tn=0.05, epsilon=0.1)
    with pytest.raises(revwave.InputError, match=r"epsilon has shape \(3, 3, 3\), the model is \(20, 20, 18\)"):
        revwave.forward(**SPONGE, tn=0.05, epsilon=np.zeros((3, 3, 3)))
    with pytest.raises(revwave.InputError, match=r"--delta nan is invalid"):
        revwave.forward(**SPONGE, tn=0.05, epsilon=0.1, delta=float("nan"))
