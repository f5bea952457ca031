#!/usr/bin/python3
# Writes mann_whitney_reference.json: samples and their two-sided Mann-Whitney U p-values as SciPy computes them
# (scipy.stats.mannwhitneyu, method="asymptotic", use_continuity=True), the reference the engine's test checks
# mannWhitneyP against. Run with Debian 12's python3-scipy (SciPy 1.10.1): /usr/bin/python3 mann_whitney_reference.py
import json

import numpy as np
import scipy
from scipy.stats import mannwhitneyu

rng = np.random.default_rng(20261204)
cases = []


def add(name, a, b):
    a = [float(x) for x in a]
    b = [float(x) for x in b]
    p = mannwhitneyu(b, a, alternative="two-sided", method="asymptotic", use_continuity=True).pvalue
    cases.append({"name": name, "baseline": a, "current": b, "p": float(p)})


add("same distribution, 50 each", np.round(rng.normal(2.5, 0.025, 50), 5), np.round(rng.normal(2.5, 0.025, 50), 5))
add("1 % shift at 1 % noise, 200 each", np.round(rng.normal(2.5, 0.025, 200), 5),
    np.round(rng.normal(2.525, 0.025, 200), 5))
add("unequal sizes, 30 and 170", np.round(rng.lognormal(0.9, 0.05, 30), 4), np.round(rng.lognormal(0.91, 0.05, 170), 4))
add("heavy ties: whole numbers 0 to 5", rng.integers(0, 6, 80), rng.integers(0, 6, 60))
add("ties across samples, shifted", rng.integers(0, 4, 40), rng.integers(1, 5, 45))
add("no overlap", np.round(rng.normal(1.0, 0.01, 25), 4), np.round(rng.normal(2.0, 0.01, 25), 4))
add("one value each, different", [1.0], [2.0])
add("two and three values", [1.0, 3.0], [2.0, 4.0, 5.0])
add("tiny samples with a tie", [1.0, 2.0, 2.0], [2.0, 3.0])
add("outliers in one", list(np.round(rng.normal(2.5, 0.02, 60), 4)) + [9.0, 12.0],
    np.round(rng.normal(2.51, 0.02, 60), 4))
add("every value the same but one", [5.0] * 20, [5.0] * 19 + [6.0])

with open("mann_whitney_reference.json", "w") as f:
    json.dump({"how": "scipy.stats.mannwhitneyu(current, baseline, alternative='two-sided', method='asymptotic', "
                      "use_continuity=True), SciPy " + scipy.__version__ + "; see mann_whitney_reference.py",
               "cases": cases}, f, indent=1)
