"""`revwave plan` against the gradient it predicts, and the quiet --backend auto on a machine without a GPU."""
import re

import pytest

SMALL = ["--shape", "40,40,40", "--tn", "0.25"]


@pytest.mark.parametrize("boundary", ["cpml", "sponge"])
@pytest.mark.parametrize("strategy", [["--snaps", "5"], ["--checkpoint-memory", "6MiB"], ["--strategy", "full"]])
def test_plan_predicts_the_gradient_it_plans(cli, tmp_path, strategy, boundary):
    args = [*SMALL, "--backend", "cpu", "--threads", "1", "--boundary", boundary, *strategy]
    plan = cli.json("plan", *args)
    run = cli.json("gradient", *args, "--out", tmp_path / "g.npy")
    # The slots and the step counts are those the gradient ran.
    for key in ("snaps", "steps", "forward_steps", "reverse_steps"):
        assert plan[key] == run[key], key
    if "full" in strategy:
        # full's reverse steps read the stored history: its forward steps are all advances.
        assert plan["advances"] == plan["forward_steps"] == plan["steps"]
        assert "advances only" in run["step_counts"]
    else:
        assert plan["advances"] + plan["reverse_steps"] == plan["forward_steps"]
        assert plan["advances"] > 0 and "advances and reverse steps" in run["step_counts"]
    assert plan["checkpoint_bytes"] == run["checkpoint_bytes"]
    # Peak memory: within 15% of the resident peak the run reports (the prediction is the plan's own
    # resident memory, the working set and the checkpoints held in memory). The plan counts what is
    # allocated; with the C-PML about 8 MB of it is never touched at this size (measured on 2026-12-07:
    # 1.20x the resident peak under 6 MiB of slots at 7cfcb3f, 1.21x a build later, the sponge's 1.10x;
    # 1.16x in 0.2.0): within 25% there, and never below.
    assert plan["predicted_peak_bytes"] == pytest.approx(run["peak_rss_bytes"], rel=0.25 if boundary == "cpml" else 0.15)
    assert plan["predicted_peak_bytes"] >= run["peak_rss_bytes"]
    assert plan["predicted_seconds"] > 0
    assert "nothing was run" in plan["prediction"]


def test_plan_of_online_is_a_bound_the_run_meets(cli, tmp_path):
    args = [*SMALL, "--backend", "cpu", "--threads", "1", "--strategy", "online", "--snaps", "5"]
    plan = cli.json("plan", *args)
    run = cli.json("gradient", *args, "--out", tmp_path / "g.npy")
    # No online run beats the offline optimum for its slots, which the plan counts and calls a bound.
    assert "at least" in plan["forward_steps_bound"]
    assert run["offline_forward_steps"] == plan["forward_steps"] <= run["forward_steps"]
    assert plan["advances"] + plan["reverse_steps"] == plan["forward_steps"] and plan["advances"] > 0
    assert plan["choice"].startswith("online: 5 slots") and run["strategy"] == "online"
    _, out, _ = cli("plan", *args)
    assert re.search(r"forward steps\s+at least \d+ = \d+ advances \+ the \d+ reverse steps", out)
    assert "strategy        online: 5 slots" in out


def test_plan_text_says_it_is_a_prediction_and_what_includes_what(cli):
    _, out, _ = cli("plan", *SMALL, "--snaps", "5")
    assert "a prediction: nothing is run" in out
    assert re.search(r"forward steps\s+\d+ = \d+ advances \+ the \d+ reverse steps", out)
    assert "predicted peak" in out and "predicted time" in out


def test_plan_plans_for_any_machine_and_says_whether_this_one_holds_the_run(cli):
    # #45: plan refused a CPU run this machine lacked the memory for; it is arithmetic for any machine.
    # 200000^3 points hold more than any machine has; SMALL's few MiB fit any that runs the suite.
    huge = cli.json("plan", "--shape", "200000,200000,200000", "--tn", "0.1")
    assert huge["this_machine"]["holds_the_run"] is False
    assert huge["this_machine"]["needed_bytes"] > huge["this_machine"]["available_bytes"]
    assert huge["slots"] == 20 and huge["forward_steps"] > huge["steps"]
    _, out, _ = cli("plan", "--shape", "200000,200000,200000", "--tn", "0.1")
    assert re.search(r"this machine\s+.* available: the run needs .* more, so `revwave gradient` would refuse it here", out)
    small = cli.json("plan", *SMALL, "--snaps", "5")
    assert small["this_machine"]["holds_the_run"] is True
    _, out, _ = cli("plan", *SMALL, "--snaps", "5")
    assert "this machine" not in out


@pytest.mark.parametrize("bad, says", [(["--snaps", "0"], "--snaps"), (["--shape", "4,4"], "--shape"),
                                       (["--checkpoint-memory", "1"], "--checkpoint-memory")])
def test_plan_refuses_bad_input_in_one_line(cli, bad, says):
    rc, out, err = cli("plan", *SMALL, *bad, check=False)
    assert rc != 0 and out == ""
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1 and says in lines[0], err


def test_schedule_takes_the_gradients_tier_names(cli):
    j = cli.json("schedule", "--steps", "30", "--strategy", "multilevel", "--tier", "memory:2:0:0", "--tier", "disk:6:2:3")
    assert [t["name"] for t in j["tiers"]] == ["memory", "disk"]
    rc, out, err = cli("schedule", "--steps", "30", "--strategy", "multilevel", "--tier", "tape:2:0:0", check=False)
    assert rc != 0 and "tier 'tape' is unknown" in err and len(err.strip().splitlines()) == 1
    rc, out, err = cli("schedule", "--steps", "30", "--strategy", "multilevel", "--tier", "memory:2", check=False)
    assert rc != 0 and "needs its costs" in err


def no_gpu(cli):
    info = cli.json("info")
    if info["cuda_devices"]:
        pytest.skip("a CUDA device is present: --backend auto runs on it")
    return info


def test_auto_on_a_machine_without_a_gpu_says_cpu_and_nothing_about_cuda(cli, tmp_path):
    no_gpu(cli)
    for args in (["forward", "--out", tmp_path / "s.npy"], ["gradient", "--out", tmp_path / "g.npy"]):
        _, out, err = cli(*args, *SMALL, "--backend", "auto")
        assert "on cpu (auto)" in out
        for word in ("CUDA", "cuda", "driver"):
            assert word not in out + err, (args, out, err)


def test_the_reason_goes_to_verbose_and_info(cli, tmp_path):
    info = no_gpu(cli)
    _, out, _ = cli("gradient", *SMALL, "--backend", "auto", "--verbose", "--out", tmp_path / "g.npy")
    assert "on cpu (auto: no GPU is usable: " in out
    reason = info["cuda_unavailable_reason"]
    assert reason and reason in out
    _, text, _ = cli("info")
    assert reason in text
