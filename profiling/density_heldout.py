# profiling/density_heldout.py BINARY (run in a scratch directory: it writes rho.npy and rec.npy there)
# Held-out density models (not the test suite's seeds or shapes): each model x boundary x order,
# a long record (about 12 crossings), through the CLI; bounded = finite, exit 0, and the record's
# largest value in its last sixth below that in its first half.
import numpy as np, subprocess, json, itertools, sys, os
rng = np.random.default_rng(20261204)
binp = sys.argv[1]
def model(kind, shape):
    nx, ny, nz = shape
    x, y, z = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing='ij')
    if kind == 'gradient':   # 1000 + 15 kg/m^3 per metre, clipped at 2700
        return np.clip(1000 + 15 * 10 * z, 1000, 2700)
    if kind == 'salt':       # a 2150 body in 2300 sediment under water
        r = np.sqrt((x - nx / 2) ** 2 + (z - 0.6 * nz) ** 2 + ((y - ny / 2) ** 2 if ny > 1 else 0))
        rho = np.where(z < 6, 1020.0, 2300.0); rho[r < nz / 5] = 2150.0; return rho
    if kind == 'blobs':      # random smooth, contrast 500
        f = np.zeros(shape)
        for _ in range(5):
            c = rng.uniform(0, 1, 3) * np.array(shape); w = rng.uniform(2, 6)
            f += rng.choice([-1, 1]) * np.exp(-((x - c[0]) ** 2 + ((y - c[1]) ** 2 if ny > 1 else 0) + (z - c[2]) ** 2) / (2 * w * w))
        f = (f - f.min()) / (np.ptp(f) + 1e-30); return 1000 * 500 ** f
    if kind == 'dipping':    # 1000 over 3e4 along a dipping interface
        return np.where(z > 0.4 * nz + 0.3 * (x - nx / 2), 3e4, 1000.0)
    raise ValueError(kind)
rows = []
for shape in [(40, 1, 36), (20, 18, 22)]:
    for kind in ['gradient', 'salt', 'blobs', 'dipping']:
        rho = model(kind, shape).astype(np.float32); np.save('rho.npy', rho)
        orders = [2, 4, 8, 16] if shape[1] == 1 else [4, 8]
        for order, (bnd, fs) in itertools.product(orders, [('cpml', False), ('sponge', False), ('cpml', True)]):
            nx, ny, nz = shape; h = 10
            tn = 0.15 + 12 * (max(nx, nz) * h) / 2000.0
            src = f"{0.37*(nx-1)*h:.1f},{0.5*(ny-1)*h:.1f},{0.55*(nz-1)*h:.1f}"
            rec = f"{0.62*(nx-1)*h:.1f},{0.5*(ny-1)*h:.1f},{0.3*(nz-1)*h:.1f}"
            cmd = [binp, 'forward', '--velocity', '2000', '--shape', f'{nx},{ny},{nz}', '--tn', f'{tn:.3f}', '--f0', '12',
                   '--density', 'rho.npy', '--src', src, '--rec', rec, '--boundary', bnd, '--space-order', str(order),
                   '--threads', '1', '--out', 'rec.npy']
            if fs: cmd.append('--free-surface')
            for f in ['rec.npy', 'rec.json']:
                if os.path.exists(f): os.remove(f)
            r = subprocess.run(cmd, capture_output=True, text=True)
            ok = r.returncode == 0 and os.path.exists('rec.npy')
            early = late = float('nan')
            if ok:
                d = np.load('rec.npy').ravel(); n = len(d)
                early = float(np.abs(d[: n // 2]).max()); late = float(np.abs(d[5 * n // 6:]).max())
                ok = np.isfinite(d).all() and late < early
            rows.append((shape, kind, order, bnd + (' + free surface' if fs else ''), r.returncode, early, late, ok))
            print(f"{shape} {kind:9s} order {order:2d} {rows[-1][3]:20s} rc {r.returncode} early {early:.3g} late {late:.3g} {'bounded' if ok else 'FAIL ' + r.stderr.strip()[-200:]}", flush=True)
print(f"{sum(r[-1] for r in rows)} of {len(rows)} bounded")
