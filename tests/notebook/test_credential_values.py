"""Which parameter values are refused as credentials: the shapes of real tokens, random
keys, URLs with a password; and the values a workbook really takes are not."""

from __future__ import annotations

import random
import string

import pytest

from incidentbook.notebook.runner import SecretParameter, check_parameters, credential_in

# Values of the kind the workbook's parameters take (times, URIs, paths, pack names, run
# names); none may be refused.
ORDINARY = [
    "2025-03-14T08:00:00+00:00",
    "prometheus+http://127.0.0.1:9090",
    "prometheus+https://thanos.example/prometheus",
    "https://user@prom.example/api",  # a user, no password
    "data/incidents/smollm3-storage-trainer-log",
    "/runs/SmolLM3StorageTrainer2025Run/events",
    "/packs/MyExperimentName_v2_Run17_H100x48.yaml",
    "/packs/Llama3_70B_pretrain_run42_node17.yaml",
    "GPT4oMiniFineTune2024Q3Eval",
    "a5f3c9e8b7d6a5f3c9e8b7d6a5f3c9e8b7d6a5f3",  # a commit id
    "0b5c8d3e-2f7a-4c1e-9b6d-5a4f3e2d1c0b",  # a UUID
    "DCGM_FI_DEV_PCIE_LINK_WIDTH",
    "skip-connections-everywhere",
]


@pytest.mark.parametrize("value", ORDINARY)
def test_ordinary_values_are_not_credentials(value):
    assert credential_in(value) is None


def test_random_keys_are_caught_most_of_the_time():
    """Keys drawn as services draw them (32 letters and digits, uniformly): the rule must
    catch nearly all, though a rare draw reads like a name."""
    rng = random.Random(17)
    alphabet = string.ascii_letters + string.digits
    keys = ["".join(rng.choice(alphabet) for _ in range(32)) for _ in range(500)]
    caught = sum(credential_in(k) == "a long random key" for k in keys)
    assert caught / len(keys) >= 0.85


def test_a_refused_value_is_not_in_the_message():
    key = "ghp_" + "Zq3" * 12
    with pytest.raises(SecretParameter) as info:
        check_parameters({"source": key})
    assert "GitHub token" in str(info.value) and key not in str(info.value)
