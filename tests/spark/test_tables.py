"""``notescrub.spark.tables.session``: what a session started by notescrub is configured with."""

from __future__ import annotations

import sys
import types

from notescrub.spark.tables import session
from notescrub.threads import BLAS_THREAD_VARIABLES


class _Builder:
    def __init__(self) -> None:
        self.conf: dict[str, str] = {}

    def appName(self, name):
        return self

    def master(self, master):
        self.conf["master"] = master
        return self

    def config(self, key, value):
        self.conf[key] = value
        return self

    def getOrCreate(self):
        ctx = types.SimpleNamespace(setLogLevel=lambda level: None)
        return types.SimpleNamespace(sparkContext=ctx, conf=self.conf)


def _fake_pyspark(monkeypatch) -> _Builder:
    builder = _Builder()
    spark_session = types.SimpleNamespace(builder=builder, getActiveSession=lambda: None)
    sql = types.ModuleType("pyspark.sql")
    sql.SparkSession = spark_session  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyspark", types.ModuleType("pyspark"))
    monkeypatch.setitem(sys.modules, "pyspark.sql", sql)
    monkeypatch.delenv("PYSPARK_GATEWAY_PORT", raising=False)
    return builder


def test_python_workers_get_one_blas_thread(monkeypatch):
    _fake_pyspark(monkeypatch)
    for var in BLAS_THREAD_VARIABLES:
        monkeypatch.delenv(var, raising=False)
    spark, started = session("local[2]")
    assert started and spark.conf["master"] == "local[2]"
    assert all(spark.conf[f"spark.executorEnv.{v}"] == "1" for v in BLAS_THREAD_VARIABLES)


def test_a_count_set_by_the_user_or_conf_is_kept(monkeypatch):
    _fake_pyspark(monkeypatch)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    spark, _ = session("local[2]", {"spark.executorEnv.MKL_NUM_THREADS": "2"})
    assert spark.conf["spark.executorEnv.OPENBLAS_NUM_THREADS"] == "4"
    assert spark.conf["spark.executorEnv.MKL_NUM_THREADS"] == "2"
