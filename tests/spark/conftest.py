"""One local Spark session for the Spark tests (skipped, with the reason, without pyspark or Java)."""

from __future__ import annotations

import os
import shutil
import sys

import pytest


def _missing() -> str | None:
    for module in ("pyspark", "pandas", "pyarrow"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install 'notescrub[spark]')"
    java_home = os.environ.get("JAVA_HOME")
    if not shutil.which("java") and not (java_home and os.path.exists(os.path.join(java_home, "bin", "java"))):
        return "no Java runtime (Spark needs Java 17 or later)"
    return None


@pytest.fixture(scope="session")
def spark():
    why = _missing()
    if why:
        pytest.skip(why)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("notescrub-tests")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "4")
               .config("spark.default.parallelism", "2").getOrCreate())
    session.sparkContext.setLogLevel("OFF")
    yield session
    session.stop()
