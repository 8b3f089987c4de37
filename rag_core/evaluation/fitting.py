"""Fit the answerability model: L2-regularised logistic regression, in numpy, by Newton's method.

Small on purpose (a dozen features, a few thousand candidates): Newton/IRLS
converges in ~10 steps, needs no learning rate and gives the same weights on
every run, so `bench/fit_answerability.py` is reproducible to the last digit.
"""

from __future__ import annotations

import numpy as np


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def fit_logistic(
    x: np.ndarray, y: np.ndarray, *, l2: float = 1.0, sample_weight: np.ndarray | None = None, steps: int = 50
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Weights and bias on standardised features, plus the (mean, scale) used to standardise.

    Returns (weights, bias, mean, scale); predict with `sigmoid(((x - mean) / scale) @ weights + bias)`.
    The bias is not penalised.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    sw = np.ones(len(x)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    theta = np.zeros(xs.shape[1])
    penalty = np.full(xs.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = sigmoid(xs @ theta)
        gradient = xs.T @ (sw * (p - y)) + penalty * theta
        hessian = (xs * (sw * p * (1 - p))[:, None]).T @ xs + np.diag(penalty) + 1e-9 * np.eye(len(theta))
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return theta[:-1], float(theta[-1]), mean, scale


def predict(x: np.ndarray, weights: np.ndarray, bias: float, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Probabilities for rows of raw features."""
    return sigmoid(((np.asarray(x, dtype=np.float64) - mean) / scale) @ weights + bias)
