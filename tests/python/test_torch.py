"""revwave.torch: the modelling inside PyTorch's autograd. gradcheck in double with Revolve, a float32
loss's gradient equal to revwave.gradient's for the same L2 misfit (with a fixed density under a free
surface too), a C-contiguous tensor crossing without a copy, survey batches, and `import revwave`
without torch."""
import subprocess
import sys

import numpy as np
import pytest

import revwave

torch = pytest.importorskip("torch", reason="torch is not installed (Debian's python3-torch; bash .ci/setup makes a venv that sees it)")
import revwave.torch as rwt  # noqa: E402

SHAPE = (12, 11, 10)
SMALL = dict(tn=0.06, dt=1.5e-3, nbl=4, space_order=4, threads=1, src=[(55.0, 50.0, 20.0)],
             rec=[(15.0 + 20 * i, 25.0 + 25 * j, 60.0) for i in range(4) for j in range(2)])


def blob(dtype):
    nx, ny, nz = SHAPE
    x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    v = 2000.0 + 300.0 * np.exp(-((x - 6) ** 2 + (y - 5) ** 2 + (z - 6) ** 2) / 6.0)
    return torch.tensor(v, dtype=dtype)


def test_gradcheck_in_double_with_revolve():
    torch.manual_seed(0)  # fast mode's random directions
    c = blob(torch.float64).requires_grad_()
    f = lambda v: rwt.forward(v, strategy="revolve", snaps=3, **SMALL)  # noqa: E731
    # Velocities are ~2000 m/s: a step of 1e-2 m/s keeps the central difference's truncation error
    # (relative (eps/c)^2) and its rounding far below the tolerance (1.7e-11 measured along one
    # direction); atol 0 so that the tiny traces (~1e-6) cannot pass trivially.
    assert torch.autograd.gradcheck(f, (c,), eps=1e-2, atol=0, rtol=1e-6, fast_mode=True)


def test_a_float32_losss_gradient_equals_revwave_gradient():
    c = blob(torch.float32).requires_grad_()
    observed = revwave.forward(np.full(SHAPE, 2000.0, np.float32), shape=SHAPE, **SMALL)
    traces = rwt.forward(c, strategy="revolve", snaps=3, **SMALL)
    assert traces.dtype == torch.float32 and tuple(traces.shape) == observed.data.shape
    loss = 0.5 * ((traces - torch.from_numpy(observed.data)) ** 2).sum()
    loss.backward()
    r = revwave.gradient(c.detach().numpy(), observed=observed, strategy="revolve", snaps=3, wrt="velocity",
                         nbl=4, space_order=4, threads=1, shape=SHAPE)
    assert c.grad.dtype == torch.float32
    assert c.grad.numpy().tobytes() == r.gradient.tobytes()  # the same residual, the same adjoint: the same bits
    assert abs(loss.item() - r.objective) <= 1e-6 * r.objective


def test_a_fixed_density_under_a_free_surface_gives_revwave_gradients_bits():
    rho = np.full(SHAPE, 1000.0)
    rho[:, :, 2:] = 1500.0  # a contrast in the rows that read the surface's mirror
    kw = dict(SMALL, free_surface=True)
    observed = revwave.forward(np.full(SHAPE, 2000.0), shape=SHAPE, density=rho, precision="double", **kw)
    c = blob(torch.float64).requires_grad_()
    traces = rwt.forward(c, density=torch.from_numpy(rho), **kw)
    mine = revwave.forward(c.detach().numpy(), shape=SHAPE, density=rho, precision="double", **kw)
    assert traces.detach().numpy().tobytes() == mine.data.tobytes()
    loss = 0.5 * ((traces - torch.from_numpy(observed.data)) ** 2).sum()
    loss.backward()
    shared = {k: v for k, v in kw.items() if k not in ("tn", "dt", "src", "rec")}
    r = revwave.gradient(c.detach().numpy(), observed=observed, wrt="velocity", shape=SHAPE, density=rho,
                         precision="double", **shared)
    assert c.grad.numpy().tobytes() == r.gradient.tobytes()
    assert np.any(r.gradient != 0)


def test_a_c_contiguous_cpu_tensor_crosses_without_a_copy():
    c = blob(torch.float32)
    rwt.forward(c, **SMALL)
    assert revwave._revwave._last_model_address() == c.data_ptr()
    # A strided view is made contiguous first (a copy, at another address).
    t = blob(torch.float32).permute(2, 1, 0).contiguous().permute(2, 1, 0)
    assert not t.is_contiguous()
    rwt.forward(t, **SMALL)
    assert revwave._revwave._last_model_address() != t.data_ptr()


def test_a_survey_is_a_batch_whose_gradient_sums_the_shots():
    c = blob(torch.float64).requires_grad_()
    kw = {k: v for k, v in SMALL.items() if k != "src"}
    shots = [(30.0, 30.0, 20.0), (80.0, 70.0, 20.0)]
    batch = rwt.forward(c, shots=shots, **kw)
    assert tuple(batch.shape)[0] == 2
    batch.square().sum().backward()
    total = c.grad.clone()
    c.grad = None
    for k, s in enumerate(shots):
        rwt.forward(c, src=[s], **kw).square().sum().backward()
    np.testing.assert_allclose(c.grad.numpy(), total.numpy(), rtol=1e-12)
    with pytest.raises(ValueError, match="shots excludes src"):
        rwt.forward(c, shots=shots, **SMALL)
    with pytest.raises(ValueError, match="unknown option"):
        rwt.forward(c, misfit="l2", **SMALL)


def test_dt_is_required_so_that_every_record_has_the_same_samples():
    options = {k: v for k, v in SMALL.items() if k != "dt"}
    for c in (blob(torch.float32), blob(torch.float32) * 1.2):  # a faster model would take a smaller step
        with pytest.raises(revwave.InputError, match="needs dt="):
            rwt.forward(c, **options)
    a = rwt.forward(blob(torch.float32), **SMALL)
    b = rwt.forward(blob(torch.float32) * 1.2, **SMALL)
    assert a.shape == b.shape


def test_import_revwave_works_without_torch():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import revwave\n"
            "try:\n    import revwave.torch\nexcept ImportError:\n    print('no torch: revwave.torch refused')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "no torch: revwave.torch refused"
