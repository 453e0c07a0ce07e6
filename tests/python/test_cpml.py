"""boundary= in the Python package: the CLI's --boundary cpml bit for bit (dJ/drho too), a Revolve
gradient equal to the full history's, the adjoint test, torch's keyword, and bad values refused."""
import numpy as np
import pytest

import revwave

SMALL = dict(shape=(16, 14, 12), tn=0.08, nbl=5)
CLI_SMALL = ["--shape", "16,14,12", "--tn", "0.08", "--nbl", "5"]
SRC = [(60.0, 50.0, 40.0)]
REC = [(10.0, 50.0, 10.0), (140.0, 50.0, 100.0)]


def test_forward_equals_cli_and_differs_from_the_sponge(cli, tmp_path):
    rec = revwave.forward(**SMALL, boundary="cpml", src=SRC, rec=REC)
    cli("forward", *CLI_SMALL, "--boundary", "cpml", "--src", "60,50,40", "--rec", "10,50,10", "--rec",
        "140,50,100", "--out", tmp_path / "cpml.npy")
    theirs = revwave.ShotRecord.load(tmp_path / "cpml.npy")
    assert theirs.data.tobytes() == rec.data.tobytes()
    assert revwave.forward(**SMALL, src=SRC, rec=REC).data.tobytes() == rec.data.tobytes()  # the default
    sponge = revwave.forward(**SMALL, boundary="sponge", src=SRC, rec=REC)
    assert sponge.data.tobytes() != rec.data.tobytes()


def test_revolve_gradient_equals_full_and_adjtest_holds():
    true = np.full((16, 14, 12), 2000.0)
    true[:, :, 6:] = 2300.0
    observed = revwave.forward(true, **{k: v for k, v in SMALL.items() if k != "shape"}, boundary="cpml",
                               src=SRC, rec=REC, precision="double")
    start = np.full((16, 14, 12), 2000.0)
    full = revwave.gradient(start, observed=observed, nbl=5, boundary="cpml", strategy="full", precision="double")
    revolve = revwave.gradient(start, observed=observed, nbl=5, boundary="cpml", strategy="revolve", snaps=3,
                               precision="double")
    assert np.any(full.gradient != 0)
    assert revolve.gradient.tobytes() == full.gradient.tobytes()
    assert revwave.adjtest(**SMALL, boundary="cpml", src=SRC, rec=REC)["relative_error"] < 1e-12


def test_torch_takes_the_keyword():
    torch = pytest.importorskip("torch")
    import revwave.torch as rt
    v = torch.full((16, 14, 12), 2000.0, dtype=torch.float64)
    traces = rt.forward(v, boundary="cpml", tn=0.08, dt=1.5e-3, nbl=5, src=SRC, rec=REC)
    plain = revwave.forward(np.full((16, 14, 12), 2000.0), boundary="cpml", tn=0.08, dt=1.5e-3, nbl=5, src=SRC,
                            rec=REC, precision="double")
    assert traces.detach().numpy().tobytes() == plain.data.tobytes()


def test_bad_values_are_refused():
    with pytest.raises(revwave.InputError, match="--boundary 'pml' is invalid"):
        revwave.forward(**SMALL, boundary="pml", src=SRC, rec=REC)
    with pytest.raises(revwave.InputError, match="--nbl 3 is too thin for --boundary cpml"):
        revwave.forward(shape=(16, 14, 12), tn=0.08, nbl=3, boundary="cpml", src=SRC, rec=REC)


def test_density_gradient_equals_the_cli(cli, tmp_path):
    rho = np.full((16, 14, 12), 1000.0)
    rho[:, :, 6:] = 1800.0
    np.save(tmp_path / "rho.npy", rho)
    cli("gradient", *CLI_SMALL, "--boundary", "cpml", "--density", tmp_path / "rho.npy", "--density-gradient",
        tmp_path / "drho.npy", "--out", tmp_path / "g.npy")
    r = revwave.gradient(**SMALL, boundary="cpml", density=rho)
    assert r.density_gradient is not None and np.any(r.density_gradient != 0)
    assert r.density_gradient.tobytes() == np.load(tmp_path / "drho.npy").tobytes()
    assert r.gradient.tobytes() == np.load(tmp_path / "g.npy").tobytes()
