"""density= and density_gradient in the Python package: the CLI's --density and --density-gradient
bit for bit, a constant density giving the constant-density result, and the refusals."""
import numpy as np
import pytest

import revwave

SHAPE = (20, 20, 18)


def layered_density(shape=SHAPE):
    rho = np.full(shape, 1000.0)
    rho[:, :, shape[2] // 2:] = 2200.0
    return rho


@pytest.mark.parametrize("precision", ["float", "double"])
def test_gradient_with_a_density_equals_the_cli(cli, tmp_path, precision):
    rho = layered_density()
    np.save(tmp_path / "rho.npy", rho)
    j = cli.json("gradient", "--shape", "20,20,18", "--tn", "0.12", "--precision", precision, "--density",
                 tmp_path / "rho.npy", "--density-gradient", tmp_path / "drho.npy", "--out", tmp_path / "g.npy")
    r = revwave.gradient(shape=SHAPE, tn=0.12, precision=precision, density=rho)
    assert r.objective == j["objective"]
    assert r.gradient.tobytes() == np.load(tmp_path / "g.npy").tobytes()
    theirs = np.load(tmp_path / "drho.npy")
    assert r.density_gradient is not None and r.density_gradient.shape == SHAPE
    assert r.density_gradient.dtype == theirs.dtype
    assert r.density_gradient.tobytes() == theirs.tobytes()
    # The density as a path reads the same file; density_gradient=False leaves dJ/dm as it is.
    by_path = revwave.gradient(shape=SHAPE, tn=0.12, precision=precision, density=tmp_path / "rho.npy",
                               density_gradient=False)
    assert by_path.density_gradient is None
    assert by_path.gradient.tobytes() == r.gradient.tobytes()


def test_a_density_changes_the_record_and_a_constant_one_does_not():
    same = dict(shape=SHAPE, tn=0.15, dt=0.001)  # one dt: the density's contrasts lower the default
    plain = revwave.forward(**same)
    constant = revwave.forward(**same, density=np.full(SHAPE, 1234.5))
    layered = revwave.forward(**same, density=layered_density())
    assert constant.data.tobytes() == plain.data.tobytes()
    assert not np.array_equal(layered.data, plain.data)
    assert revwave.gradient(shape=SHAPE, tn=0.12).density_gradient is None


def test_adjtest_with_a_density_holds_in_double():
    r = revwave.adjtest(shape=(16, 14, 12), density=layered_density((16, 14, 12)))
    assert r["pass"] and r["relative_error"] < 1e-12


@pytest.mark.parametrize("bad, words", [
    (np.full((20, 20, 17), 1000.0), "a density must have the model's shape"),
    (np.where(layered_density() > 1500, -5.0, 1000.0), "density -5 kg/m^3"),
    (np.where(layered_density() > 1500, np.nan, 1000.0), "densities must be finite and positive"),
])
def test_bad_densities_are_refused_naming_the_value(bad, words):
    with pytest.raises(revwave.InputError, match=words.replace("^", r"\^")):
        revwave.forward(shape=SHAPE, tn=0.12, density=bad)


def test_a_density_gradient_without_a_density_is_refused():
    with pytest.raises(revwave.InputError, match="--density-gradient needs --density"):
        revwave.gradient(shape=SHAPE, tn=0.12, density_gradient=True)


def test_a_free_surface_with_a_density_equals_the_cli(cli, tmp_path):
    rho = layered_density()
    rho[:, :, :3] = 1300.0  # a density that changes across the rows that read the surface's mirror
    np.save(tmp_path / "rho.npy", rho)
    j = cli.json("gradient", "--shape", "20,20,18", "--tn", "0.25", "--free-surface", "--density",
                 tmp_path / "rho.npy", "--density-gradient", tmp_path / "drho.npy", "--out", tmp_path / "g.npy")
    r = revwave.gradient(shape=SHAPE, tn=0.25, free_surface=True, density=rho)
    assert j["free_surface"] is True
    assert r.objective == j["objective"]
    assert r.gradient.tobytes() == np.load(tmp_path / "g.npy").tobytes()
    assert r.density_gradient.tobytes() == np.load(tmp_path / "drho.npy").tobytes()
    assert np.all(np.isfinite(r.density_gradient)) and np.any(r.density_gradient != 0)
    plain = revwave.gradient(shape=SHAPE, tn=0.25, free_surface=True)
    constant = revwave.gradient(shape=SHAPE, tn=0.25, free_surface=True, density=np.full(SHAPE, 1234.5))
    assert constant.gradient.tobytes() == plain.gradient.tobytes()
    adj = revwave.adjtest(shape=(16, 14, 12), free_surface=True, density=layered_density((16, 14, 12)))
    assert adj["pass"] and adj["relative_error"] < 1e-12
