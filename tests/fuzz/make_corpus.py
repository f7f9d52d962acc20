#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Makes the hostile-report corpus: damaged and hostile variants of real reports.

Usage: make_corpus.py --cli TRAINSCOPE_CLI --archive TOYNET_ARCHIVE OUT_DIR

The seeds are real reports that trainscope-cli writes: the built-in MLP (project frames and
metadata) and the toy TorchScript archive profiled with a project root that holds none of its
sources (library frames only). From each one this writes, deterministically (a fixed random
seed):
  - SQL-level variants, made with SQLite itself: each contract table replaced by a view
    (recursive, or one that calls functions), dropped, or rebuilt without a column;
    Inf, NaN, negative, text, blob and out-of-range values in every numeric column;
    megabyte strings; hostile project roots and frames (absolute paths, "..", /etc files,
    line numbers past 2^31); rowids at both ends of the 64-bit integers; WAL journal mode;
    triggers; extra indexes; empty and orphaned rows;
  - byte-level variants: bit flips, overwritten runs of bytes, zeroed pages, damaged header
    fields, truncations.
  - timelines (ours, and one in torch_npu's format made by make_ascend_db.py) with what
    budgets must hold against: 200,000 steps, megabyte type names, every call and link on one
    connection id, and a shape list of 100,000 entries that every call names.
  - the files the import reads, torch.profiler traces and memory snapshots (import_corpus.py).
The file names say what each variant is, so that a failure names its cause.
"""
import argparse
import os
import random
import shutil
import sqlite3
import subprocess
import sys

from import_corpus import import_variants

MEGABYTE_TEXT = "printf('%.*c', 1048576, 'x')"

# SQL expressions.
HOSTILE_PATHS = ["'/etc/passwd'", "'../../../etc/shadow'", "'..'", "''", "'/'", "'a/../../b.py'",
                 "'model.py' || char(0) || '.txt'", "'~/.ssh/id_rsa'", "'C:\\Windows\\win.ini'",
                 "char(10) || 'x.py'"]

HOSTILE_ROOTS = ["/", "..", "/etc", "", "relative/root", "/nonexistent/" + "d" * 300]

# Infinities, a negative, text, a blob, NULL (also what NaN reads as), the largest integer, one
# past an int, a fraction where an integer belongs.
HOSTILE_NUMBERS = ["9e999", "-9e999", "-1", "'soon'", "x'00ff'", "NULL", "9223372036854775807",
                   "2147483648", "4.5"]


def tables_of(db):
    rows = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name: sql for name, sql in rows}


def columns_of(db, table):
    return [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]


def numeric_columns(db, table):
    return [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')
            if row[2].upper() in ("INTEGER", "INT", "REAL")]


def text_columns(db, table):
    return [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')
            if row[2].upper() == "TEXT"]


class Corpus:
    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.count = 0

    def sql_variant(self, seed, name, statements):
        """A copy of `seed` changed by `statements`; skipped when SQLite refuses them."""
        path = os.path.join(self.out_dir, name + ".sqlite")
        shutil.copyfile(seed, path)
        db = sqlite3.connect(path, isolation_level=None)
        try:
            for statement in statements:
                db.execute(statement)
        except sqlite3.Error:
            db.close()
            os.remove(path)
            return
        db.close()
        for suffix in ("-wal", "-shm", "-journal"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        self.count += 1

    def byte_variant(self, seed_bytes, name, data):
        if data == seed_bytes:
            return
        with open(os.path.join(self.out_dir, name + ".sqlite"), "wb") as out:
            out.write(data)
        self.count += 1


def sql_variants(corpus, seed, tag):
    db = sqlite3.connect(seed)
    tables = tables_of(db)
    numeric = {t: numeric_columns(db, t) for t in tables}
    text = {t: text_columns(db, t) for t in tables}
    columns = {t: columns_of(db, t) for t in tables}
    db.close()

    for table in tables:
        cols = columns[table]
        select = ", ".join(f"{c}" for c in cols)
        corpus.sql_variant(seed, f"{tag}-recursive-view-{table}", [
            f'ALTER TABLE "{table}" RENAME TO real_{table}',
            f'CREATE VIEW "{table}" AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL '
            f'SELECT i + 1 FROM n) SELECT {select} FROM real_{table}, n'])
        corpus.sql_variant(seed, f"{tag}-function-view-{table}", [
            f'ALTER TABLE "{table}" RENAME TO real_{table}',
            f'CREATE VIEW "{table}" AS SELECT {select} FROM real_{table} '
            f"WHERE load_extension('/tmp/evil') IS NULL OR 1"])
        corpus.sql_variant(seed, f"{tag}-dropped-{table}", [f'DROP TABLE "{table}"'])
        corpus.sql_variant(seed, f"{tag}-empty-{table}", [f'DELETE FROM "{table}"'])
        corpus.sql_variant(seed, f"{tag}-trigger-{table}", [
            f'CREATE TRIGGER t_{table} AFTER INSERT ON "{table}" BEGIN '
            f"SELECT load_extension('/tmp/evil'); END"])
        # Rowids at both ends of the 64-bit integers: the checks cut the span into ranges.
        corpus.sql_variant(seed, f"{tag}-rowid-ends-{table}", [
            f'UPDATE "{table}" SET rowid = -9223372036854775808 '
            f'WHERE rowid = (SELECT MIN(rowid) FROM "{table}")',
            f'UPDATE "{table}" SET rowid = 9223372036854775807 '
            f'WHERE rowid = (SELECT MAX(rowid) FROM "{table}")'])
        corpus.sql_variant(seed, f"{tag}-index-{table}", [
            f'CREATE INDEX extra_{table} ON "{table}"({cols[-1]} DESC)'])
        for dropped in cols:
            kept = [c for c in cols if c != dropped]
            if not kept:
                continue
            corpus.sql_variant(seed, f"{tag}-without-{table}.{dropped}", [
                f'CREATE TABLE copy_{table} AS SELECT {", ".join(kept)} FROM "{table}"',
                f'DROP TABLE "{table}"',
                f'ALTER TABLE copy_{table} RENAME TO "{table}"'])
        # Values a well-made report never holds. NOT NULL and types are dropped by a rebuild
        # without constraints, so that every value can be tried.
        for column in numeric[table]:
            for value in HOSTILE_NUMBERS:
                safe = "".join(ch if ch.isalnum() else "_" for ch in value)
                corpus.sql_variant(seed, f"{tag}-value-{table}.{column}-{safe}", [
                    f'CREATE TABLE loose_{table} AS SELECT * FROM "{table}"',
                    f'DROP TABLE "{table}"',
                    f'ALTER TABLE loose_{table} RENAME TO "{table}"',
                    f'UPDATE "{table}" SET {column} = {value} '
                    f'WHERE rowid IN (SELECT rowid FROM "{table}" LIMIT 2)'])
        for column in text[table]:
            corpus.sql_variant(seed, f"{tag}-megabyte-{table}.{column}", [
                f'UPDATE "{table}" SET {column} = {MEGABYTE_TEXT} '
                f'WHERE rowid IN (SELECT rowid FROM "{table}" LIMIT 3)'])
            corpus.sql_variant(seed, f"{tag}-blob-{table}.{column}", [
                f'CREATE TABLE loose_{table} AS SELECT * FROM "{table}"',
                f'DROP TABLE "{table}"',
                f'ALTER TABLE loose_{table} RENAME TO "{table}"',
                f'UPDATE "{table}" SET {column} = x\'00ff00ff\''])
        corpus.sql_variant(seed, f"{tag}-duplicated-{table}", [
            f'CREATE TABLE loose_{table} AS SELECT * FROM "{table}"',
            f'INSERT INTO loose_{table} SELECT * FROM "{table}"',
            f'DROP TABLE "{table}"',
            f'ALTER TABLE loose_{table} RENAME TO "{table}"'])

    if "stack_frames" in tables:
        for i, path in enumerate(HOSTILE_PATHS):
            corpus.sql_variant(seed, f"{tag}-frame-path-{i}", [
                "UPDATE stack_frames SET file_path = " + path])
        corpus.sql_variant(seed, f"{tag}-frames-orphaned", [
            "UPDATE stack_frames SET " +
            ("correlation_id = correlation_id + 100000" if "correlation_id" in
             columns["stack_frames"] else "entry_id = entry_id + 100000")])
        corpus.sql_variant(seed, f"{tag}-frames-many", [
            "WITH RECURSIVE n(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
            "INSERT INTO stack_frames SELECT " +
            ", ".join({"correlation_id": "1", "entry_id": "1", "ordering": "i",
                       "file_path": "'deep.py'", "line_number": "i"}[c]
                      for c in columns["stack_frames"]) + " FROM n"])
    if "trainscope_metadata" in tables:
        for i, root in enumerate(HOSTILE_ROOTS):
            corpus.sql_variant(seed, f"{tag}-root-{i}", [
                "INSERT OR REPLACE INTO trainscope_metadata VALUES ('project_root', " +
                sqlite_quote(root) + ")"])
    if "trainscope_library_frames" in tables:
        for i, root in enumerate(HOSTILE_ROOTS):
            corpus.sql_variant(seed, f"{tag}-library-root-{i}", [
                "UPDATE trainscope_library_frames SET library_root = " + sqlite_quote(root)])
    corpus.sql_variant(seed, f"{tag}-wal", ["PRAGMA journal_mode = WAL"])
    corpus.sql_variant(seed, f"{tag}-page-size-512", ["PRAGMA page_size = 512", "VACUUM"])
    corpus.sql_variant(seed, f"{tag}-foreign-table", [
        "CREATE TABLE run_time_entries_extra (id INTEGER PRIMARY KEY, junk BLOB)"])


def sqlite_quote(text):
    return "'" + text.replace("'", "''") + "'"


def byte_variants(corpus, seed, tag, rng):
    with open(seed, "rb") as f:
        data = f.read()
    page_size = int.from_bytes(data[16:18], "big") or 65536
    for i in range(30):
        flipped = bytearray(data)
        for _ in range(rng.choice((1, 4, 32))):
            offset = rng.randrange(len(data))
            flipped[offset] ^= 1 << rng.randrange(8)
        corpus.byte_variant(data, f"{tag}-bitflip-{i}", bytes(flipped))
    for i in range(15):
        smashed = bytearray(data)
        offset = rng.randrange(len(data))
        length = rng.choice((4, 16, 256))
        smashed[offset:offset + length] = bytes(rng.choice((0x00, 0xff, 0x7f)) for _ in
                                                range(len(smashed[offset:offset + length])))
        corpus.byte_variant(data, f"{tag}-smash-{i}", bytes(smashed))
    for page in range(1, len(data) // page_size):
        zeroed = bytearray(data)
        zeroed[page * page_size:(page + 1) * page_size] = bytes(page_size)
        corpus.byte_variant(data, f"{tag}-zero-page-{page}", bytes(zeroed))
    # Header fields SQLite trusts: page size, reserved space, page count, schema cookie,
    # text encoding, first freelist page.
    for offset, value in [(16, b"\x00\x03"), (16, b"\xff\xff"), (20, b"\xff"), (28, b"\x7f\xff\xff\xff"),
                          (40, b"\xff\xff\xff\xff"), (56, b"\x00\x00\x00\x07"),
                          (32, b"\x00\x00\x00\x02"), (52, b"\x00\x00\x00\x09")]:
        patched = bytearray(data)
        patched[offset:offset + len(value)] = value
        corpus.byte_variant(data, f"{tag}-header-{offset}-{value.hex()}", bytes(patched))
    for length in sorted({0, 1, 99, 100, 101, len(data) // 3, len(data) // 2, len(data) - 1} |
                         {rng.randrange(len(data)) for _ in range(5)}):
        corpus.byte_variant(data, f"{tag}-truncated-{length}", data[:length])


def timeline_variants(corpus, seed, tag):
    """What a reader's budgets must hold against: each costs as much as the file is large, not
    as many times as the file says it (each used to hang the app or an export)."""
    corpus.sql_variant(seed, f"{tag}-steps-200000", [
        "DROP TABLE IF EXISTS STEP_TIME",
        "CREATE TABLE STEP_TIME (id, startNs, endNs)",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 200000) "
        "INSERT INTO STEP_TIME SELECT x, x * 1000000, x * 1000000 + 500000 + x % 7 * 1000 "
        "FROM c"])
    corpus.sql_variant(seed, f"{tag}-megabyte-type-names", [
        f"UPDATE ENUM_API_TYPE SET name = printf('%.*c', 1048576, 'e')"])
    corpus.sql_variant(seed, f"{tag}-one-connection-id", [
        "UPDATE PYTORCH_API SET connectionId = 1",
        "UPDATE CONNECTION_IDS SET id = 1, connectionId = 1"])
    corpus.sql_variant(seed, f"{tag}-shapes-100000", [
        "INSERT INTO STRING_IDS (id, value) SELECT 999999999, group_concat("
        "'9223372036854775807,-1', ';' || char(13, 10)) FROM (WITH RECURSIVE c(x) AS "
        "(SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT x FROM c)",
        "UPDATE PYTORCH_API SET inputShapes = 999999999, inputDtypes = 999999999"])


def make_seeds(cli, archive, seed_dir):
    """Profiles two small models; returns the reports written."""
    os.makedirs(seed_dir)
    runs = {
        "mlp": ["--model", "builtin:mlp", "--param", "d_model=32", "--input", "2x8x32"],
        "toynet": ["--model", archive, "--input", "2x32", "--project-root", seed_dir],
    }
    seeds = []
    for name, args in runs.items():
        prefix = os.path.join(seed_dir, name)
        subprocess.run([cli, "profile", *args, "-q", "-o", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        seeds += [prefix + ".memory.sqlite", prefix + ".time.sqlite"]
    return seeds


def make_timeline_seeds(seed_dir):
    """Our timeline of the built-in MLP (make_seeds' run wrote it), and a database in torch_npu's
    format."""
    ascend = os.path.join(seed_dir, "ascend.timeline.sqlite")
    generator = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                             "make_ascend_db.py")
    subprocess.run([sys.executable, generator, ascend, "--calls", "300"], check=True,
                   stdout=subprocess.DEVNULL)
    prefix = os.path.join(seed_dir, "mlp")
    return [prefix + ".timeline.sqlite", ascend]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--archive", required=True)
    parser.add_argument("out_dir")
    options = parser.parse_args()
    out_dir = options.out_dir
    seed_dir = out_dir + "-seeds"
    for folder in (out_dir, seed_dir):
        if os.path.isdir(folder):
            shutil.rmtree(folder)
    os.makedirs(out_dir)
    corpus = Corpus(out_dir)
    rng = random.Random(20261121)
    for seed in make_seeds(options.cli, options.archive, seed_dir):
        tag = os.path.basename(seed).replace(".sqlite", "").replace(".", "-")
        shutil.copyfile(seed, os.path.join(out_dir, tag + "-original.sqlite"))
        corpus.count += 1
        sql_variants(corpus, seed, tag)
        byte_variants(corpus, seed, tag, rng)
    for seed in make_timeline_seeds(seed_dir):
        tag = os.path.basename(seed).replace(".sqlite", "").replace(".", "-")
        shutil.copyfile(seed, os.path.join(out_dir, tag + "-original.sqlite"))
        corpus.count += 1
        timeline_variants(corpus, seed, tag)
    import_variants(corpus, seed_dir, rng)
    print(f"{corpus.count} reports in {out_dir}")


if __name__ == "__main__":
    main()
