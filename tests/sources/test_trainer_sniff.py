"""Sniffing a file for trainer formats once per run (sources/trainer/read.formats_of)."""

from __future__ import annotations

import os
import shutil

from conftest import REPO
from incidentbook.sources.trainer import read

DATA = REPO / "tests" / "data" / "trainer"


def _counting_heads(monkeypatch) -> list:
    heads: list = []
    real = read.read_head

    def counted(path):
        heads.append(path)
        return real(path)

    monkeypatch.setattr(read, "read_head", counted)
    return heads


def test_a_file_is_sniffed_once_while_it_stays_the_same(tmp_path, monkeypatch):
    log = tmp_path / "train.log"
    shutil.copy(DATA / "megatron_lm_2021_n8.log", log)
    heads = _counting_heads(monkeypatch)
    first = [f.name for f in read.formats_of(log)]
    again = [f.name for f in read.formats_of(log)]
    assert first == again == ["megatron"]
    assert heads == [log]


def test_a_changed_file_is_sniffed_again(tmp_path, monkeypatch):
    log = tmp_path / "train.log"
    shutil.copy(DATA / "megatron_lm_2021_n8.log", log)
    assert [f.name for f in read.formats_of(log)] == ["megatron"]
    before = log.stat()
    log.write_text("nothing a trainer writes\n")
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert read.formats_of(log) == []
    shutil.copy(DATA / "megatron_lm_2021_n8.log", log)
    assert [f.name for f in read.formats_of(log)] == ["megatron"]


def test_the_answer_is_a_copy_callers_may_change(tmp_path):
    log = tmp_path / "train.log"
    shutil.copy(DATA / "megatron_lm_2021_n8.log", log)
    read.formats_of(log).clear()
    assert [f.name for f in read.formats_of(log)] == ["megatron"]
