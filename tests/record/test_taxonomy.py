from pathlib import Path

import pytest
import yaml

from incidentbook.errors import TaxonomyError, UnknownFacetValue
from incidentbook.record.taxonomy import FACETS, load_taxonomy


def test_default_taxonomy_has_four_facets_each_with_unknown():
    taxonomy = load_taxonomy()
    assert set(taxonomy.facets) == set(FACETS)
    for facet in FACETS:
        assert taxonomy.ids(facet)[0] == "unknown"
        assert len(taxonomy.ids(facet)) >= 20


@pytest.mark.parametrize(
    ("facet", "value_id"),
    [
        # Llama 3's interruption categories and the other published ones the issue names
        ("root_cause", "faulty-gpu"),
        ("root_cause", "hbm-failure"),
        ("root_cause", "sram-failure"),
        ("root_cause", "gsp-failure"),
        ("root_cause", "silent-data-corruption"),
        ("root_cause", "thermal-interface-failure"),
        ("root_cause", "nic-failure"),
        ("root_cause", "network-switch-or-cable-failure"),
        ("root_cause", "nvme-drive-failure"),
        ("root_cause", "psu-failure"),
        ("root_cause", "chassis-failure"),
        ("root_cause", "cpu-failure"),
        ("root_cause", "system-memory-failure"),
        ("root_cause", "software-bug"),
        ("root_cause", "dependency"),
        ("root_cause", "host-maintenance"),
        ("root_cause", "pcie-link-fault"),
        ("root_cause", "kernel-bug"),
        ("root_cause", "driver-bug"),
        ("root_cause", "dataloader-scaling-bug"),
        ("root_cause", "scheduler-bug"),
        ("root_cause", "configuration-change"),
        ("root_cause", "storage"),
        ("symptom", "nccl-watchdog-timeout"),
        ("symptom", "pcie-link-downtrained"),
        ("component", "scheduler"),
        ("component", "dataloader"),
    ],
)
def test_published_failure_categories_are_present(facet, value_id):
    assert load_taxonomy().value(facet, value_id).id == value_id


def test_values_form_a_tree_shared_filesystem_under_storage():
    taxonomy = load_taxonomy()
    assert taxonomy.ancestors("component", "shared-filesystem") == ["storage"]
    assert "shared-filesystem" in taxonomy.children("component", "storage")


def test_unknown_value_names_facet_and_suggests_nearest():
    with pytest.raises(UnknownFacetValue) as info:
        load_taxonomy().check("component", "shared-filesytem")
    message = str(info.value)
    assert "component" in message
    assert "'shared-filesystem'" in message
    assert info.value.suggestions[0] == "shared-filesystem"


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_extension_adds_values_and_overrides_labels(tmp_path):
    path = _write(
        tmp_path,
        {
            "facets": {
                "component": {
                    "values": [
                        {
                            "id": "lustre",
                            "label": "Lustre",
                            "description": "Our Lustre.",
                            "parent": "shared-filesystem",
                        },
                        {"id": "storage", "label": "Storage systems"},
                    ]
                }
            }
        },
    )
    taxonomy = load_taxonomy(path)
    assert taxonomy.ancestors("component", "lustre") == ["shared-filesystem", "storage"]
    assert taxonomy.value("component", "storage").label == "Storage systems"
    assert taxonomy.value("component", "storage").description  # kept from the default
    assert "lustre" not in load_taxonomy().ids("component")  # the default is untouched


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"facets": {"colour": {"values": []}}}, "colour"),
        ({"facets": {"component": {"values": [{"label": "no id"}]}}}, "needs an 'id'"),
        (
            {
                "facets": {
                    "component": {
                        "values": [{"id": "x", "label": "X", "description": "d", "parent": "nope"}]
                    }
                }
            },
            "parent 'nope'",
        ),
        (
            {
                "facets": {
                    "component": {"values": [{"id": "Bad Id", "label": "X", "description": "d"}]}
                }
            },
            "pattern",
        ),
    ],
)
def test_bad_extension_is_a_clear_error(tmp_path, data, expected):
    with pytest.raises(TaxonomyError, match=expected):
        load_taxonomy(_write(tmp_path, data))


def test_missing_extension_file_is_a_clear_error(tmp_path):
    with pytest.raises(TaxonomyError, match="does not exist"):
        load_taxonomy(tmp_path / "absent.yaml")


def test_tree_lists_children_under_their_parent_whatever_the_file_order(tmp_path):
    path = _write(
        tmp_path,
        {
            "facets": {
                "symptom": {
                    "values": [
                        {
                            "id": "late-child",
                            "label": "L",
                            "description": "d",
                            "parent": "performance-problem",
                        }
                    ]
                }
            }
        },
    )
    order = [(v.id, depth) for v, depth in load_taxonomy(path).tree("symptom")]
    parent = order.index(("performance-problem", 0))
    child = order.index(("late-child", 1))
    between = order[parent + 1 : child]
    assert all(depth >= 1 for _, depth in between)
