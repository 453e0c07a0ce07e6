"""2D models (ny = 1) in the Python package: the CLI's bits for a model array of shape (nx, 1, nz),
the adjoint test on the plane (with and without the free surface), the plane's time step, and a
point off the plane refused."""
import numpy as np
import pytest

import revwave

SMALL = dict(shape=(30, 1, 20), tn=0.25, nbl=5)
CLI_SMALL = ["--shape", "30,1,20", "--tn", "0.25", "--nbl", "5"]
SRC = [(100.0, 0.0, 50.0)]
REC = [(50.0, 0.0, 20.0), (200.0, 0.0, 30.0)]


def test_forward_of_a_plane_equals_cli(cli, tmp_path):
    rec = revwave.forward(**SMALL, src=SRC, rec=REC)
    assert np.all(np.isfinite(rec.data)) and np.any(rec.data != 0)
    cli("forward", *CLI_SMALL, "--src", "100,0,50", "--rec", "50,0,20", "--rec", "200,0,30",
        "--out", tmp_path / "plane.npy")
    theirs = revwave.ShotRecord.load(tmp_path / "plane.npy")
    assert theirs.data.tobytes() == rec.data.tobytes()
    # The plane's time step: sqrt(3/2) of a 3D grid's with the same velocity and spacing.
    flat = revwave.forward(velocity=2000.0, shape=(30, 1, 20), tn=0.25, nbl=5, src=SRC, rec=REC)
    thick = revwave.forward(velocity=2000.0, shape=(30, 2, 20), tn=0.25, nbl=5, src=SRC, rec=REC)
    assert flat.dt / thick.dt == pytest.approx(np.sqrt(1.5), rel=1e-9)


def test_a_model_array_of_shape_nx_1_nz_is_a_plane():
    c = np.full((30, 1, 20), 2000.0)
    c[:, :, 12:] = 2500.0
    rec = revwave.forward(c, src=SRC, rec=REC, tn=0.25, nbl=5, precision="double")
    assert rec.data.shape[1] == 2 and np.all(np.isfinite(rec.data))
    g = revwave.gradient(np.full((30, 1, 20), 2000.0), observed=rec, nbl=5, precision="double")
    assert g.gradient.shape == (30, 1, 20)
    assert np.all(np.isfinite(g.gradient)) and np.any(g.gradient != 0)


@pytest.mark.parametrize("free_surface", [False, True])
def test_adjtest_holds_on_the_plane(free_surface):
    r = revwave.adjtest(**SMALL, free_surface=free_surface, src=SRC, rec=REC)
    assert r["relative_error"] < 1e-12


def test_a_point_off_the_plane_is_refused():
    with pytest.raises(revwave.InputError, match=r"lies outside the grid: coordinates must be within \[0, 290\] x \[0, 0\]"):
        revwave.forward(**SMALL, src=[(100.0, 5.0, 50.0)], rec=REC)


def test_scipy_inverts_a_plane_with_the_free_surface():
    """examples/fwi_2d.py in small: L-BFGS-B on a 2D line lowers J and the model error."""
    optimize = pytest.importorskip("scipy.optimize", reason="scipy is optional (the examples use it)")
    nx, nz, h = 61, 31, 10.0
    x, z = np.meshgrid(np.arange(nx), np.arange(nz), indexing="ij")
    start = (1800.0 + 15.0 * z)[:, None, :]
    true = start - (300.0 * np.exp(-((x - 30) ** 2 + (z - 15) ** 2) / 20.0))[:, None, :]
    rec = [(10.0 * i, 0.0, 10.0) for i in range(1, nx - 1, 2)]
    shots = [revwave.forward(true, spacing=h, tn=0.6, f0=12.0, src=[(sx, 0.0, 10.0)], rec=rec, free_surface=True,
                             precision="double") for sx in (100.0, 300.0, 500.0)]
    f = revwave.Objective(true.shape, observed=shots, spacing=h, free_surface=True, precision="double",
                          strategy="revolve", snaps=20)
    # 20 iterations: under the C-PML (the default) 8 took the model error to 0.88 of the start's, 12 to
    # 0.85 (the sponge's echoes had lit the blob from below); 20 pass the bound.
    r = optimize.minimize(f, f.x(start), jac=True, method="L-BFGS-B", bounds=f.bounds(1500.0, 2500.0),
                          options=dict(maxiter=20))
    model = f.model(r.x)
    assert model.shape == (nx, 1, nz)
    assert r.fun < 0.3  # J / J0
    assert np.linalg.norm(model - true) < 0.8 * np.linalg.norm(start - true)
