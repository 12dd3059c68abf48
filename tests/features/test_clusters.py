"""Word clusters learnt from text, their table files and the ``clusters`` feature group."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from notescrub.errors import ConfigError
from notescrub.features import Featurizer
from notescrub.features.clusters import WordClusters, learn_clusters, load_clusters, normalise
from notescrub.types import Document

SURNAMES = ["Ruiz", "Gil", "Vega", "Soto", "Mora", "Lara", "Pons", "Roca"]
TOWNS = ["Madrid", "Sevilla", "Bilbao", "Cuenca", "Lugo", "Soria", "Teruel", "Huesca"]
FINDINGS = ["fiebre", "tos", "disnea", "cefalea", "astenia", "vómitos", "diarrea", "mialgias"]


def _corpus() -> list[str]:
    """Sentences in which surnames, towns and symptoms each fill their own slots."""
    out = []
    for i in range(160):
        s, t, f = SURNAMES[i % 8], TOWNS[(i * 3) % 8], FINDINGS[(i * 5) % 8]
        out.append(f"El paciente Sr. {s}, natural de {t}, ingresa por {f} desde hace {i % 9 + 1} días. "
                   f"Dra. {SURNAMES[(i + 3) % 8]} valora en {TOWNS[(i + 5) % 8]} y refiere {FINDINGS[(i + 1) % 8]}.")
    return out


@pytest.fixture(scope="module")
def clusters() -> WordClusters:
    return learn_clusters(_corpus(), sizes=(3, 12), dims=8, contexts=200)


def _same_class(wc: WordClusters, words: list[str], level: int = 0) -> bool:
    return len({wc.table[normalise(w)][level] for w in words}) == 1


def test_words_of_a_slot_share_the_coarse_cluster(clusters: WordClusters) -> None:
    assert _same_class(clusters, SURNAMES) and _same_class(clusters, TOWNS) and _same_class(clusters, FINDINGS)
    # three coarse clusters for the 42 words of this corpus may put two slots together (which two
    # depends on the SVD of the scipy release); the finer level keeps the three slots apart
    assert all(_same_class(clusters, g, level=1) for g in (SURNAMES, TOWNS, FINDINGS))
    assert len({clusters.table[w][1] for w in ("ruiz", "madrid", "fiebre")}) == 3
    assert clusters.table["ruiz"][0] != clusters.table["fiebre"][0] or clusters.table["madrid"][0] != clusters.table["fiebre"][0]


def test_learning_is_deterministic_and_normalises(clusters: WordClusters) -> None:
    again = learn_clusters(_corpus(), sizes=(3, 12), dims=8, contexts=200)
    assert again.table == clusters.table
    assert clusters.features("RUIZ") == clusters.features("ruiz") == [f"wc3={clusters.table['ruiz'][0]}",
                                                                         f"wc12={clusters.table['ruiz'][1]}"]
    assert clusters.features("Zaragoza") == ["wc=none"]  # never seen
    assert "0" in clusters.table  # every digit is 0: '1', '2', ... days share one entry


def test_rare_words_get_no_cluster() -> None:
    wc = learn_clusters(_corpus() + ["Una palabra única aparece aquí."], sizes=(3,), dims=4, min_count=2)
    assert "única" not in wc.table and "ruiz" in wc.table
    with pytest.raises(ConfigError, match="min_count"):
        learn_clusters(["solo una vez"], min_count=2)


def test_table_file_round_trip(clusters: WordClusters, tmp_path: Path) -> None:
    for name in ("c.tsv", "c.tsv.gz"):
        path = clusters.save(tmp_path / name)
        assert load_clusters(str(path)).table == clusters.table
    assert gzip.decompress((tmp_path / "c.tsv.gz").read_bytes()).startswith(b"# notescrub word clusters v1")
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("text, message", [
    ("word\t1\n", "not a word-cluster table"),
    ("# notescrub word clusters v1\tsizes=4,x\n", "line 1"),
    ("# notescrub word clusters v1\tsizes=4\nruiz\t1\t2\n", "line 2: expected"),
    ("# notescrub word clusters v1\tsizes=4\nruiz\t9\n", "line 2: a cluster id is out of range"),
    ("# notescrub word clusters v1\tsizes=4\nruiz\tx\n", "line 2: cluster ids must be integers"),
])
def test_bad_tables_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / f"bad{abs(hash(text))}.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as e:
        load_clusters(str(path))
    assert str(path) in str(e.value) and "ruiz" not in str(e.value)


def test_missing_tables() -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_clusters("/nonexistent/c.tsv.gz")
    with pytest.raises(ConfigError, match="no packaged word-cluster table"):
        load_clusters("no-such-table")


def test_featurizer_clusters_group(clusters: WordClusters, tmp_path: Path) -> None:
    path = str(clusters.save(tmp_path / "c.tsv.gz"))
    f = Featurizer(groups=("lexical", "clusters"), window=(1, 1), affixes=0, clusters=path,
                   window_groups=("lexical", "clusters"))
    feats = f.attributes(Document("d", "Dra. Vega en Lugo"))
    vega, lugo = clusters.features("Vega"), clusters.features("Lugo")
    # tokens: Dra . Vega en Lugo
    assert set(vega) <= set(feats[2]) and {f"1:{x}" for x in vega} <= set(feats[1])
    assert {f"-1:{x}" for x in clusters.features("en")} <= set(feats[4]) and set(lugo) <= set(feats[4])
    assert Featurizer.from_config(f.to_config()).attributes(Document("d", "Vega")) == f.attributes(Document("d", "Vega"))
    without_window = Featurizer(groups=("lexical", "clusters"), window=(1, 1), affixes=0, clusters=path)
    assert not any(":wc" in x for x in without_window.attributes(Document("d", "Dra. Vega"))[0])
    with pytest.raises(ConfigError, match="needs a word-cluster table"):
        Featurizer(groups=("clusters",)).attributes(Document("d", "x"))


def test_crf_model_carries_its_table(clusters: WordClusters, tmp_path: Path) -> None:
    from notescrub.detect.crf.tagger import CLUSTERS_FILE, CRFTagger
    from notescrub.errors import ModelError
    from notescrub.types import Span

    table = clusters.save(tmp_path / "plain.tsv")  # not gzip: the model's copy is
    docs = []
    for i, text in enumerate(_corpus()[:30]):
        d = Document(f"d{i}", text)
        start = text.index("Sr. ") + 4
        d.add_layer("gold", [Span(start, text.index(",", start), "PATIENT")])
        docs.append(d)
    feat = Featurizer(groups=("lexical", "clusters"), window=(1, 1), clusters=str(table),
                      window_groups=("lexical", "clusters"))
    tagger = CRFTagger(feat, max_iterations=5).fit(docs)
    out = tagger.save(tmp_path / "m")
    table.unlink()  # the model must not need the original file any more
    loaded = CRFTagger.load(out)
    assert loaded.featurizer.clusters == str(out / CLUSTERS_FILE)
    assert gzip.decompress((out / CLUSTERS_FILE).read_bytes()).startswith(b"# notescrub word clusters")
    probe = Document("p", "El paciente Sr. Pons, natural de Lugo, ingresa por tos.")
    assert loaded.featurizer.attributes(probe) == Featurizer.from_config(
        {**feat.to_config(), "clusters": str(out / CLUSTERS_FILE)}).attributes(probe)
    assert [(s.start, s.end) for s in loaded.detect(probe)] == [(s.start, s.end) for s in tagger.detect(probe)]
    (out / CLUSTERS_FILE).write_bytes(b"tampered")
    with pytest.raises(ModelError, match="checksum"):
        CRFTagger.load(out)
