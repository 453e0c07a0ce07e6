#!/usr/bin/env python3
"""Checks one Revolve gradient's NVTX ranges, counted by Nsight Systems, against the counts its
schedule predicts (profiling/gpu_check.sh's nsys phase; docs/nsys.md).

    nsys stats --report nvtx_sum --format csv -o - run.nsys-rep > nvtx_sum.csv
    python3 profiling/nsys_ranges.py nvtx_sum.csv gradient.json

nvtx_sum.csv is `nsys stats --report nvtx_sum --format csv` (its "Processing [...]" lines before
the header are skipped; columns Time (%), Total Time (ns), Instances, ..., Style, Range; a Range
may carry a leading ':' for the default domain). gradient.json is the same run's
`revwave gradient --json` on the CUDA backend with slots in pinned host memory (two levels).
The ranges and what each count must be (cuda/: NvtxRange):

    forward   one per advance (CudaPropagator::forward_step): predicted_forward_steps - steps (the
              schedule's forward steps count the advances and the reverse steps, each reverse step
              applying the forward operator once; the observed data must come from a file, or
              their modelling adds nt - 1 more)
    reverse   one per reverse step: steps
    store     one per checkpoint stored in pinned host memory: placement.host_slots (each stored once)
    spill     inside each such store: its copy out of the device: placement.host_slots
    restore   one per pinned checkpoint restored: placement.host_slots (each restored once)
    prefetch  one per pinned checkpoint read ahead: placement.host_slots (every pinned restore is
              prefetched; tests/cuda/test_cuda_checkpointing.cpp, EveryPinnedRestoreIsPrefetched)

Device slots are handles and copy nothing: they have no range. Exit 0 when every count matches,
1 when one differs or a range is missing (one line each), 2 on unreadable input.
"""
import csv
import io
import json
import sys

RANGES = ("forward", "reverse", "store", "spill", "restore", "prefetch")


class InputError(Exception):
    pass


def range_counts(text):
    """{range name: instances} from nvtx_sum's CSV output (with or without nsys's preamble)."""
    lines = text.splitlines()
    header = next((i for i, line in enumerate(lines) if "Instances" in line and "Range" in line), None)
    if header is None:
        raise InputError("no nvtx_sum table (a header with Instances and Range) in the CSV")
    counts = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines[header:]))):
        name, instances = (row.get("Range") or "").strip(), (row.get("Instances") or "").strip()
        if not name:
            continue
        if not instances.isdigit():
            raise InputError(f"range {name}: Instances {instances!r} is not a count")
        name = name[1:] if name.startswith(":") else name  # nsys 2024+: ":name" in the default domain
        counts[name] = counts.get(name, 0) + int(instances)
    return counts


def predicted_counts(summary):
    """The counts the gradient's schedule predicts, from its `revwave gradient --json`."""
    try:
        if summary["backend"] != "cuda":
            raise InputError(f"the gradient ran on {summary['backend']}, not cuda: it has no NVTX ranges")
        if summary["strategy"] != "revolve":
            raise InputError(f"strategy {summary['strategy']}: this check counts a revolve gradient's ranges")
        # "placement" since 0.3; "cuda" before (kept for one release).
        pinned = int(summary["placement" if "placement" in summary else "cuda"]["host_slots"])
        forward, steps = int(summary["predicted_forward_steps"]), int(summary["steps"])
    except KeyError as e:
        raise InputError(f"the gradient's JSON has no {e.args[0]!r}") from e
    if pinned <= 0:
        raise InputError("the run kept every checkpoint on the device (placement.host_slots 0): no store, spill, restore "
                         "or prefetch range to count; give a smaller --device-memory")
    if int(summary["forward_steps"]) != forward:
        raise InputError(f"forward_steps {summary['forward_steps']} differs from the predicted {forward}")
    return {"forward": forward - steps, "reverse": steps, "store": pinned, "spill": pinned, "restore": pinned, "prefetch": pinned}


def compare(counts, predicted):
    """One line per range whose count differs from the prediction (a missing range counts 0)."""
    problems = []
    for name in RANGES:
        seen = counts.get(name, 0)
        if name not in counts:
            problems.append(f"range {name}: missing from the timeline (predicted {predicted[name]})")
        elif seen != predicted[name]:
            problems.append(f"range {name}: {seen} instances, predicted {predicted[name]}")
    return problems


def main(argv):
    if len(argv) != 3:
        print("usage: nsys_ranges.py NVTX_SUM_CSV GRADIENT_JSON", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            counts = range_counts(f.read())
        with open(argv[2], encoding="utf-8") as f:
            predicted = predicted_counts(json.load(f))
    except (OSError, ValueError, InputError) as e:
        print(f"nsys_ranges: {e}", file=sys.stderr)
        return 2
    for name in RANGES:
        print(f"{name:9s} {counts.get(name, 0):8d} instances, predicted {predicted[name]}")
    problems = compare(counts, predicted)
    for line in problems:
        print(f"nsys_ranges: {line}", file=sys.stderr)
    print("nsys ranges: " + ("every count as the schedule predicts" if not problems else f"{len(problems)} differ"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
