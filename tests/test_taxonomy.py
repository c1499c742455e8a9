"""04_taxonomy: Ward clustering on hand-worked points, level sizes, nesting, distinctive names, determinism, the LLM
name-and-verify path against the scripted server (a misfit move, a garbage name), and mean-pooled HF embeddings."""
import argparse
import importlib
import json
import os
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from lib import example_env, runfolder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tax = importlib.import_module("04_taxonomy")

FLIGHTS = "Book flights between airports: flights, airports, airlines and boarding gates."
PATIENTS = "Patients see doctors: patients, doctors, appointments and prescriptions."
ENVS = [  # id, theme name, domain, description
    ("air-booking", "Flight Booking", "travel", FLIGHTS),
    ("air-departures", "Airport Departures", "travel", "Delayed flights at airports: flights, airports, runways."),
    ("air-hotel", "Airport Hotels", "travel", "Hotels near airports for connecting flights, flights, airports."),
    ("air-miles", "Airline Miles", "travel", "Miles earned on flights from airports: flights, airports, loyalty."),
    ("med-clinic", "Clinic Appointments", "health", PATIENTS),
    ("med-lab", "Lab Results", "health", "Lab tests doctors order for patients: patients, doctors, samples."),
    ("med-pharmacy", "Pharmacy", "health", "Doctors prescribe medicines to patients: patients, doctors, refills."),
    ("med-records", "Patient Records", "health", "Records doctors keep about patients: patients, doctors, visits."),
]


def make_run(root, envs=ENVS):
    """A run folder with a finished 03_filter: kept.jsonl (kind env_kept) and envs/<id>/ built from the bookshop."""
    run = os.path.join(str(root), "run")
    stage = runfolder.Stage(run, "03_filter", argparse.Namespace(run_dir=run, seed=0))
    rows = []
    for env_id, name, domain, description in envs:
        folder = example_env.build(stage.path("envs", env_id), n_books=5, n_customers=3)
        con = sqlite3.connect(os.path.join(folder, "db.sqlite"))
        con.execute("UPDATE _meta SET value = ? WHERE key = 'env_id'", (env_id,))
        con.commit()
        con.close()
        with open(os.path.join(folder, "env.json")) as f:
            meta = json.load(f)
        meta.update(id=env_id, theme={"id": env_id, "name": name, "domain": domain}, description=description)
        with open(os.path.join(folder, "env.json"), "w") as f:
            json.dump(meta, f)
        tools = [{"name": n, "kind": k} for n, k in (("get_book", "read"), ("place_order", "write"))]
        rows.append({"id": env_id, "source": "schema", "tools": tools, "tests": 2})
    stage.write_jsonl("kept.jsonl", rows, "env_kept")
    stage.finish({"kept": len(rows)})
    return run


def run_stage(run, *extra):
    """Run 04_taxonomy as a subprocess; returns its stdout."""
    return subprocess.run([sys.executable, os.path.join(ROOT, "04_taxonomy.py"), "--run-dir", run, *extra], check=True,
                          capture_output=True, text=True, cwd=ROOT, timeout=120).stdout


def outputs(run):
    """(labels rows, taxonomy dict, raw bytes of both files)."""
    d = os.path.join(run, "04_taxonomy")
    raw = {n: open(os.path.join(d, n), "rb").read() for n in ("labels.jsonl", "taxonomy.json")}
    return runfolder.read_jsonl(os.path.join(d, "labels.jsonl"), "label"), json.loads(raw["taxonomy.json"]), raw


@pytest.fixture(scope="module")
def offline(tmp_path_factory):
    run = make_run(tmp_path_factory.mktemp("tax"))
    return run, run_stage(run, "--l1", "2", "--l2", "4")


# ---------------------------------------------------------------------------- clustering by hand

def test_ward_on_five_points_by_hand():
    # 0 1 . . . 5 6 ........ 20: {0,1} and {5,6} at 1; those two at 2*(2*2/4)*(5.5-0.5)^2 = 50;
    # then {20} at 2*(4*1/5)*(20-3)^2 = 462.4
    merges = tax.ward_merges(np.array([[0.0], [1.0], [5.0], [6.0], [20.0]]))
    assert [(a, b) for a, b, _ in merges] == [(0, 1), (2, 3), (0, 2), (0, 4)]
    assert np.allclose([h for *_, h in merges], [1, 1, 50, 462.4], rtol=1e-6)
    assert tax.cut(merges, 5, 1) == [0, 0, 0, 0, 0]
    assert tax.cut(merges, 5, 2) == [0, 0, 0, 0, 1]
    assert tax.cut(merges, 5, 3) == [0, 0, 1, 1, 2]
    assert tax.cut(merges, 5, 5) == [0, 1, 2, 3, 4]


def test_ward_ties_follow_the_chain_by_hand():
    # a unit square (1-4) and a far point (0): four tied pairs. The chain starts at 0 -> 4 (nearest) -> 2 (tie 2/3:
    # lowest index) -> 4 again (tie 1/4: the chain's previous element), so {2,4} merge first; the chain [0] goes on
    # 0 -> 3 -> 1 -> 3: {1,3}. Then the pairs at 2*(2*2/4)*1^2 = 2, then 0 at 2*(1*4/5)*(9.5^2 * 2) = 288.8.
    pts = np.array([[10.0, 10.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    merges = tax.ward_merges(pts)
    assert [(a, b) for a, b, _ in merges] == [(2, 4), (1, 3), (1, 2), (0, 1)]
    assert np.allclose([h for *_, h in merges], [1, 1, 2, 288.8], rtol=1e-6)
    assert tax.cut(merges, 5, 2) == [0, 1, 1, 1, 1]
    assert tax.cut(merges, 5, 3) == [0, 1, 2, 1, 2]  # clusters numbered by their smallest member
    # reversed: 0=(1,1) -> 1 (tie 1/2: lowest) -> 0 (tie 0/3: previous element): {0,1}; then 0 -> 2 -> 3 -> 2: {2,3}
    assert [m[:2] for m in tax.ward_merges(pts[::-1].copy())] == [(0, 1), (2, 3), (0, 2), (0, 4)]


def test_ward_on_2000_points_is_fast_and_nested():
    x = np.random.default_rng(0).standard_normal((2000, 64)).astype(np.float32)
    start = time.time()
    merges = tax.ward_merges(x)
    assert time.time() - start < 5.0
    assert len(merges) == 1999 and all(merges[i][2] <= merges[i + 1][2] for i in range(1998))
    l1, l2 = tax.cut(merges, 2000, 20), tax.cut(merges, 2000, 50)
    assert len(set(l1)) == 20 and len(set(l2)) == 50
    assert len(set(zip(l2, l1))) == 50  # every level-2 cluster inside exactly one level-1 cluster


def test_level_sizes():
    assert tax.level_sizes(8, 20, 50) == (2, 4)
    assert tax.level_sizes(2000, 20, 50) == (20, 50)
    assert tax.level_sizes(200, 20, 50) == (10, 50)
    assert tax.level_sizes(3, 20, 50) == (2, 2)
    assert tax.level_sizes(1, 20, 50) == (1, 1)
    assert tax.level_sizes(100, 3, 5) == (3, 5)


def test_names_from_distinctive_terms_are_unique():
    docs = [["flights", "airports", "customers"], ["flight", "airports", "gates"], ["patients", "doctors", "customers"]]
    terms = tax.cluster_terms(docs, [0, 0, 1], 2, top=2)
    assert terms == [["airports", "flight"], ["doctors", "patients"]]  # "customers" is in both: ranked last
    assert tax.name_candidates(["airports", "flights", "gates"])[:2] == ["Airports & Flights", "Airports & Gates"]
    assert tax.unique_names([["A & B"], ["A & B", "A & C"], ["A & B"]]) == ["A & B", "A & C", "A & B 2"]
    assert tax.clean_name('Sure: {"name": "Air / Travel"}') == "Air - Travel"
    assert tax.clean_name("no idea") is None and tax.ask_fit('{"fits": "yes"}') is None


# ---------------------------------------------------------------------------- the stage, offline

def test_offline_tree_nests_and_names_say_what_clusters_are_about(offline):
    run, out = offline
    labels, taxonomy, _ = outputs(run)
    assert [r["id"] for r in labels] == [e[0] for e in ENVS]
    assert taxonomy["levels"] == [2, 4, 8] and taxonomy["method"]["embed"] == "tfidf-svd"
    air = {r["l1"] for r in labels if r["id"].startswith("air")}
    med = {r["l1"] for r in labels if r["id"].startswith("med")}
    assert len(air) == 1 and len(med) == 1 and air != med
    names = {r["id"][:3]: r["l1"] for r in labels}
    assert "flight" in names["air"].lower() and "airport" in names["air"].lower()
    assert "patient" in names["med"].lower() and "doctor" in names["med"].lower()
    # every environment is exactly one leaf; every l2 under exactly one l1; labels agree with the tree
    leaves = [(t["name"], k["name"], x["name"], x["env_id"]) for t in taxonomy["tree"] for k in t["children"]
              for x in k["children"]]
    assert sorted(x[3] for x in leaves) == [e[0] for e in ENVS]
    l2s = [k["name"] for t in taxonomy["tree"] for k in t["children"]]
    assert len(l2s) == len(set(l2s)) == 4
    assert {(r["l1"], r["l2"], r["l3"], r["id"]) for r in labels} == set(leaves)
    assert all(r["path"] == f"{r['l1']}/{r['l2']}/{r['l3']}" for r in labels)
    assert {r["l3"] for r in labels} == {e[1] for e in ENVS}
    assert "Flight Booking" in out and "04_taxonomy: 8 environments in 2 / 4 categories" in out


def test_rerun_is_byte_identical_and_finished_stage_says_done(offline):
    run, _ = offline
    _, _, first = outputs(run)
    assert "already done" in run_stage(run, "--l1", "2", "--l2", "4")
    run_stage(run, "--l1", "2", "--l2", "4", "--force")
    assert outputs(run)[2] == first


# ---------------------------------------------------------------------------- the stage, with an LLM

def answer(request):
    """Scripted LLM: names by what the members are about, a garbage level-2 name, one misfit, one unusable verdict."""
    text = request["messages"][-1]["content"]
    if "Give the category a short name" in text:
        sub = "subcategory" in text
        if "Flight Booking" in text:
            return "I am not sure what to call these." if sub else '{"name": "Air Travel"}'
        return '```json\n{"name": "Clinical Care"}\n```' if sub else '{"name": "Healthcare"}'
    if "Environment: Airport Hotels:" in text:
        return '{"fits": false}'
    if "Environment: Lab Results:" in text:
        return "maybe"
    return '{"fits": true}'


def test_llm_names_verifies_and_moves_a_misfit(tmp_path, scripted_llm):
    server = scripted_llm(answer)
    offline_run = make_run(tmp_path / "a")
    run_stage(offline_run, "--l1", "2", "--l2", "2")
    offline_labels = {r["id"]: r for r in outputs(offline_run)[0]}
    assert offline_labels["air-hotel"]["l2"] == offline_labels["air-booking"]["l2"]  # clustered with the flights

    run = make_run(tmp_path / "b")
    out = run_stage(run, "--l1", "2", "--l2", "2", "--llm", "openai", "--llm-base-url", server.base_url,
                    "--llm-model", "m", "--workers", "2")
    labels, taxonomy, _ = outputs(run)
    rows = {r["id"]: r for r in labels}
    flights_l2 = offline_labels["air-booking"]["l2"]  # the garbage answer keeps the offline name
    assert rows["air-booking"]["l1"] == "Air Travel" and rows["air-booking"]["l2"] == flights_l2
    assert rows["med-lab"]["l1"] == "Healthcare" and rows["med-lab"]["l2"] == "Clinical Care"  # unusable: stays
    assert rows["air-hotel"]["l1"] == "Healthcare" and rows["air-hotel"]["l2"] == "Clinical Care"  # the misfit moved
    m = taxonomy["method"]
    assert m["moves"] == [{"id": "air-hotel", "from": flights_l2, "to": "Clinical Care"}]
    assert (m["name_fallbacks"], m["fit_checks"], m["fit_unusable"]) == (1, 8, 1)
    assert len(server.requests) == 2 + 2 + 8
    assert sum(len(k["children"]) for t in taxonomy["tree"] for k in t["children"]) == 8
    assert "1 moved by the LLM check" in out
    meta = json.load(open(os.path.join(run, "04_taxonomy", "meta.json")))
    assert meta["llm"]["requests"] == 12 and meta["counts"]["moves"] == 1


# ---------------------------------------------------------------------------- HF embeddings

def test_hf_mean_pool_ignores_padding_and_is_deterministic(tmp_path):
    pytest.importorskip("transformers")
    from lib.tiny_model import build_tiny_model
    path = build_tiny_model(tmp_path / "model", [e[3] for e in ENVS])
    texts = ["flights", FLIGHTS + " " + FLIGHTS, PATIENTS]
    batched = tax.embed_hf(texts, path)
    assert batched.shape == (3, 64) and np.allclose(np.linalg.norm(batched, axis=1), 1, atol=1e-5)
    alone = np.concatenate([tax.embed_hf([t], path) for t in texts])
    assert np.allclose(batched, alone, atol=1e-5)  # the short text was padded in the batch
    assert np.array_equal(batched, tax.embed_hf(texts, path))
    run = make_run(tmp_path / "run", ENVS[:4])
    run_stage(run, "--embed", f"hf:{path}")
    labels, taxonomy, _ = outputs(run)
    assert taxonomy["method"]["embed"] == "hf-mean-pool" and taxonomy["levels"] == [2, 2, 4] and len(labels) == 4
