"""SQLite storage: one file under the data directory, plain tables, WAL.

Sessions are stored as their full JSON record (the engine's source of
truth) plus a few indexed columns for listing. Each save is one committed
transaction, so what the engine saved survives a crash or kill -9.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from interviewer.engine.record import SessionRecord
from interviewer.storage.review import parse_time, review

SCHEMA_VERSION = 2
T = TypeVar("T")

# Forward migrations: MIGRATIONS[n] brings a database from version n to n + 1.
MIGRATIONS: dict[int, list[str]] = {
    0: [
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT,
            mode TEXT NOT NULL,
            examiner TEXT NOT NULL,
            lang TEXT NOT NULL,
            record TEXT NOT NULL
        )""",
        "CREATE INDEX sessions_created ON sessions(created_at)",
        """CREATE TABLE cards (
            question_id TEXT PRIMARY KEY,
            card TEXT NOT NULL,
            due TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )""",
        """CREATE TABLE reviews (
            session_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            question_id TEXT NOT NULL,
            score REAL NOT NULL,
            reviewed_at TEXT NOT NULL,
            PRIMARY KEY (session_id, position)
        )""",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ],
    # 1 -> 2: which process has an unfinished interview open (see Store.claim).
    1: [
        """CREATE TABLE leases (
            session_id TEXT PRIMARY KEY,
            token TEXT NOT NULL,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            heartbeat TEXT NOT NULL
        )""",
    ],
}

# A lease older than this is stale even if its pid is alive (the pid may have been reused).
LEASE_STALE_S = 12 * 3600
# A lease from another host (a shared data dir) counts only while it is renewed.
REMOTE_LEASE_STALE_S = 600


class StoreError(Exception):
    """The database cannot be used; the message names the file and what to do."""


class StoreFull(StoreError):
    """The disk is full: nothing was written (the transaction was rolled back); retry once there is space."""


class StoreReadOnly(StoreError):
    """The data directory cannot be written (read-only file system or permissions); the data is intact."""


def _readonly_fs(directory: Path) -> bool:
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _no_space(directory: Path) -> bool:
    try:
        st = os.statvfs(directory)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def _where_to_go() -> str:
    return "choose a writable directory with --data-dir DIR or INTERVIEWER_HOME"


def _fs_error(path: Path, exc: BaseException) -> StoreError | None:
    """A StoreError naming the path and the cause for a file-system condition, else None."""
    text = str(exc).lower()
    name = str(getattr(exc, "sqlite_errorname", ""))
    err = getattr(exc, "errno", None)
    directory = path.parent if path.parent.exists() else next((p for p in path.parents if p.exists()), path.parent)
    full_io = (name.startswith("SQLITE_IOERR") or "disk i/o error" in text) and _no_space(directory)
    if name.startswith("SQLITE_FULL") or "disk is full" in text or err in (errno.ENOSPC, errno.EDQUOT) or full_io:
        return StoreFull(f"{path}: the disk is full (no space left on {path.parent}); nothing was lost, "
                         "and saving resumes when there is space")
    if _readonly_fs(directory) or err == errno.EROFS or name.startswith("SQLITE_READONLY"):
        intact = " (the database itself is intact)" if path.exists() else ""
        return StoreReadOnly(f"{path}: cannot write there: {directory} is on a read-only file system{intact}; "
                             f"{_where_to_go()}")
    if err in (errno.EACCES, errno.EPERM) or (directory.exists() and not os.access(directory, os.W_OK)):
        intact = " (the database itself is intact)" if path.exists() else ""
        return StoreReadOnly(f"{path}: cannot write there: permission denied on {directory}{intact}; "
                             f"{_where_to_go()}")
    if name.startswith("SQLITE_IOERR"):
        return StoreError(f"{path}: the disk reported an I/O error ({exc}); the last change was not saved")
    return None


class SessionBusy(StoreError):
    """Another live process has this interview open; writing would drop its answers."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _serialised(method: Callable[..., T]) -> Callable[..., T]:
    """Run a Store method holding its lock: one connection, many threads (see Store.__init__)."""

    @functools.wraps(method)
    def run(self: Store, *args: Any, **kwargs: Any) -> T:
        with self._lock:
            return method(self, *args, **kwargs)

    return run


class Store:
    """The app's SQLite database."""

    def __init__(self, path: Path, read_only_ok: bool = False) -> None:
        """Open (or create) the database; `read_only_ok`: on a read-only file system, open an existing
        database for reading only (history, reports), and refuse writes with StoreReadOnly."""
        # The TUI reads the store from worker threads while the UI thread writes to it or closes it at exit:
        # every use of the shared connection holds this lock, so a query never runs on a closing connection.
        self._lock = threading.RLock()
        self.path = path
        # Identifies this Store's leases: two stores on one file (or two processes) differ.
        self.lease_token = uuid.uuid4().hex
        self._leased = False  # set by the first claim: only then does close() have a lease row to remove
        self.read_only = False
        if read_only_ok and path.is_file() and _readonly_fs(path.parent):
            self._open_read_only(path)
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            existed = path.exists()
            if existed:
                _check_header(path)
            else:
                # Create the file with 0600 before SQLite opens it.
                fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
                os.close(fd)
        except OSError as exc:
            raise _fs_error(path, exc) or StoreError(f"{path}: cannot create the database: {exc.strerror or exc}; "
                                                     f"{_where_to_go()}") from None
        try:
            # Opened in a worker thread and used from several (check_same_thread=False): see self._lock.
            self.conn = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA busy_timeout = 10000")
            self._set_up()
        except sqlite3.DatabaseError as exc:
            fs = _fs_error(path, exc)
            if fs is not None:
                raise fs from None
            raise StoreError(
                f"{path}: the database is unreadable ({exc}). It was left untouched; "
                "move it aside to start a new one, or restore a backup with `interviewer import`."
            ) from None
        for suffix in ("", "-wal", "-shm"):
            p = Path(str(path) + suffix)
            with contextlib.suppress(OSError):
                if p.exists():
                    os.chmod(p, 0o600)

    def _set_up(self) -> None:
        """WAL mode and the schema. Several processes opening a new database at once can meet "database is
        locked" here without SQLite's busy handler waiting (switching the journal mode takes the file's lock
        once, not through a transaction), so that is retried for as long as the busy timeout would wait."""
        deadline = time.monotonic() + 10.0
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode = WAL")
                self.conn.execute("PRAGMA synchronous = NORMAL")
                self._migrate()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _open_read_only(self, path: Path) -> None:
        try:
            _check_header(path)
            self.conn = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, isolation_level=None,
                                        check_same_thread=False)
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: the database is unreadable ({exc}); it is on a read-only file system, "
                             "so nothing was changed") from None
        if version != SCHEMA_VERSION:
            raise StoreReadOnly(f"{path}: the database needs an upgrade, but {path.parent} is on a read-only "
                                f"file system; {_where_to_go()}")
        self.read_only = True

    @_serialised
    def close(self) -> None:
        if self._leased:  # history, report, stats... never take a lease: no write transaction on close
            try:
                with self.transaction() as conn:
                    conn.execute("DELETE FROM leases WHERE token = ?", (self.lease_token,))
            except (sqlite3.Error, StoreError):
                pass  # closing must not fail; a stale lease expires with its pid
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; a full or read-only disk becomes StoreFull/StoreReadOnly, fully rolled back."""
        if self.read_only:
            raise StoreReadOnly(f"{self.path}: cannot write there: {self.path.parent} is on a read-only file "
                                f"system (the database itself is intact); {_where_to_go()}")
        with self._lock:
            yield from self._transaction()

    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise _fs_error(self.path, exc) or exc from None
        try:
            yield self.conn
            self.conn.execute("COMMIT")  # inside the try: a COMMIT that fails (disk full) is rolled back too
        except BaseException as exc:
            if self.conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                fs = _fs_error(self.path, exc)
                if fs is not None:
                    raise fs from None
            raise

    def _migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: the database was written by a newer interviewer (schema {version}, "
                f"this one knows {SCHEMA_VERSION}). Upgrade interviewer; the file was not changed."
            )
        while version < SCHEMA_VERSION:
            with self.transaction() as conn:
                # Another process may have migrated while we waited for the write lock.
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version >= SCHEMA_VERSION:
                    break
                for stmt in MIGRATIONS[version]:
                    conn.execute(stmt)
                conn.execute(f"PRAGMA user_version = {version + 1}")
            version += 1

    # -- leases: one writer per unfinished interview ----------------------------
    @_serialised
    def claim(self, session_id: str) -> None:
        """Take (or renew) this store's lease on an interview; SessionBusy if a live process holds it.

        Each save writes the whole record, so two processes answering the same
        interview would silently drop each other's answers (reliability F8).
        """
        with self.transaction() as conn:
            self._claim(conn, session_id)

    def _claim(self, conn: sqlite3.Connection, session_id: str) -> None:
        from interviewer.engine.record import now
        from interviewer.storage.review import parse_time

        host, pid = socket.gethostname(), os.getpid()
        row = conn.execute(
            "SELECT token, host, pid, heartbeat FROM leases WHERE session_id = ?", (session_id,)
        ).fetchone()
        if row is not None and row[0] != self.lease_token:
            _token, other_host, other_pid, beat = row
            age = (parse_time(now()) - parse_time(beat)).total_seconds()
            if other_host == host:
                live = age < LEASE_STALE_S and _pid_alive(int(other_pid))
            else:
                live = age < REMOTE_LEASE_STALE_S
            if live:
                raise SessionBusy(
                    f"interview {session_id} is open in another interviewer process (pid {other_pid} on "
                    f"{other_host}); finish or quit it there first. Nothing was written."
                )
        conn.execute(
            """INSERT INTO leases (session_id, token, host, pid, heartbeat) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT(session_id) DO UPDATE SET token=excluded.token, host=excluded.host,
                 pid=excluded.pid, heartbeat=excluded.heartbeat""",
            (session_id, self.lease_token, host, pid, now()),
        )
        self._leased = True

    # -- sessions ---------------------------------------------------------------
    @_serialised
    def save_session(self, record: SessionRecord) -> None:
        """Commit the whole record (one transaction); SessionBusy if another live process has it open."""
        from interviewer.engine.record import now

        payload = record.model_dump_json()
        with self.transaction() as conn:
            if record.finished_at is None:
                self._claim(conn, record.id)
            else:
                row = conn.execute("SELECT token FROM leases WHERE session_id = ?", (record.id,)).fetchone()
                if row is not None and row[0] != self.lease_token:
                    self._claim(conn, record.id)  # raises if the holder is alive
                conn.execute("DELETE FROM leases WHERE session_id = ?", (record.id,))
            conn.execute(
                """INSERT INTO sessions (id, created_at, updated_at, finished_at, mode, examiner, lang, record)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(id) DO UPDATE SET updated_at=excluded.updated_at,
                     finished_at=excluded.finished_at, examiner=excluded.examiner, record=excluded.record""",
                (
                    record.id,
                    record.created_at,
                    now(),
                    record.finished_at,
                    record.plan.mode,
                    record.examiner,
                    record.plan.lang,
                    payload,
                ),
            )
            self._review_new_grades(conn, record)

    def _review_new_grades(self, conn: sqlite3.Connection, record: SessionRecord) -> None:
        """Schedule each newly graded question of the record once (FSRS)."""
        for pos, q in enumerate(record.questions):
            if q.grade is None or q.finished_at is None:
                continue
            seen = conn.execute(
                "SELECT 1 FROM reviews WHERE session_id = ? AND position = ?", (record.id, pos)
            ).fetchone()
            if seen:
                continue
            conn.execute(
                "INSERT INTO reviews (session_id, position, question_id, score, reviewed_at) VALUES (?, ?, ?, ?, ?)",
                (record.id, pos, q.question_id, q.grade.overall, q.finished_at),
            )
            self._apply_review(conn, q.question_id, q.grade.overall, q.finished_at)

    @staticmethod
    def _apply_review(conn: sqlite3.Connection, question_id: str, score: float, at: str) -> None:
        row = conn.execute("SELECT card FROM cards WHERE question_id = ?", (question_id,)).fetchone()
        card, due = review(question_id, row[0] if row else None, score, parse_time(at))
        conn.execute(
            """INSERT INTO cards (question_id, card, due, updated_at) VALUES (?, ?, ?, ?)
               ON CONFLICT(question_id) DO UPDATE SET card=excluded.card, due=excluded.due,
                 updated_at=excluded.updated_at""",
            (question_id, card, due, at),
        )

    @_serialised
    def rebuild_cards(self) -> None:
        """Replay every graded question in time order (after an import)."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM cards")
            conn.execute("DELETE FROM reviews")
            rows = conn.execute("SELECT record FROM sessions").fetchall()
            graded = []
            for (payload,) in rows:
                rec = SessionRecord.model_validate_json(payload)
                for pos, q in enumerate(rec.questions):
                    if q.grade is not None and q.finished_at is not None:
                        graded.append((q.finished_at, rec.id, pos, q.question_id, q.grade.overall))
            for at, sid, pos, qid, score in sorted(graded):
                conn.execute(
                    "INSERT INTO reviews (session_id, position, question_id, score, reviewed_at) VALUES (?, ?, ?, ?, ?)",
                    (sid, pos, qid, score, at),
                )
                self._apply_review(conn, qid, score, at)

    @_serialised
    def due(self, at: str | None = None) -> list[tuple[str, str, float]]:
        """(question_id, due, last score) of the cards due now, weakest first."""
        from interviewer.engine.record import now

        rows = self.conn.execute(
            """SELECT c.question_id, c.due,
                      (SELECT r.score FROM reviews r WHERE r.question_id = c.question_id
                       ORDER BY r.reviewed_at DESC, r.session_id DESC, r.position DESC LIMIT 1)
               FROM cards c WHERE c.due <= ?""",
            (at or now(),),
        ).fetchall()
        return sorted(((q, d, float(s)) for q, d, s in rows), key=lambda r: (r[2], r[1], r[0]))

    @_serialised
    def card_due(self, question_id: str) -> str | None:
        """When this question comes back for review (ISO time), or None if it was never graded."""
        row = self.conn.execute("SELECT due FROM cards WHERE question_id = ?", (question_id,)).fetchone()
        return str(row[0]) if row else None

    @_serialised
    def cards(self) -> list[tuple[str, str]]:
        return [(q, d) for q, d in self.conn.execute("SELECT question_id, due FROM cards ORDER BY due")]

    @_serialised
    def reviews(self) -> list[tuple[str, str, float, str]]:
        """(session_id, question_id, score, reviewed_at) in time order."""
        return [
            (s, q, float(sc), at)
            for s, q, sc, at in self.conn.execute(
                "SELECT session_id, question_id, score, reviewed_at FROM reviews ORDER BY reviewed_at, session_id, position"
            )
        ]

    # -- backup ------------------------------------------------------------------
    @_serialised
    def export_all(self) -> dict[str, Any]:
        from interviewer import __version__
        from interviewer.engine.record import now

        sessions = [json.loads(r[0]) for r in self.conn.execute("SELECT record FROM sessions ORDER BY created_at, id")]
        return {
            "format": "interviewer-backup",
            "version": 1,
            "app_version": __version__,
            "exported_at": now(),
            "sessions": sessions,
            "settings": {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM settings")},
        }

    @_serialised
    def import_all(self, data: dict[str, Any]) -> int:
        """Merge a backup: sessions by id (idempotent), then rebuild the review cards."""
        if not isinstance(data, dict) or data.get("format") != "interviewer-backup":
            raise StoreError("not an interviewer backup (missing \"format\": \"interviewer-backup\")")
        if int(data.get("version", 0)) > 1:
            raise StoreError(f"backup version {data.get('version')} is newer than this interviewer understands")
        records = [SessionRecord.model_validate(s) for s in data.get("sessions", [])]
        for rec in records:
            self.save_session(rec)
        for key, value in (data.get("settings") or {}).items():
            self.set_setting(key, value)
        self.rebuild_cards()
        return len(records)

    @_serialised
    def load_session(self, session_id: str) -> SessionRecord:
        row = self.conn.execute("SELECT record FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise KeyError(session_id)
        return SessionRecord.model_validate_json(row[0])

    @_serialised
    def sessions(self, unfinished_only: bool = False) -> list[SessionRecord]:
        sql = "SELECT record FROM sessions"
        if unfinished_only:
            sql += " WHERE finished_at IS NULL"
        sql += " ORDER BY created_at, id"
        return [SessionRecord.model_validate_json(r[0]) for r in self.conn.execute(sql)]

    @_serialised
    def latest_unfinished(self) -> SessionRecord | None:
        row = self.conn.execute(
            "SELECT record FROM sessions WHERE finished_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT 1"
        ).fetchone()
        return SessionRecord.model_validate_json(row[0]) if row else None

    # -- settings (last choices of the TUI) -----------------------------------
    @_serialised
    def get_setting(self, key: str, default: Any = None) -> Any:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    @_serialised
    def set_setting(self, key: str, value: Any) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, json.dumps(value)),
            )


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before SQLite can touch it."""
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise StoreError(f"{path}: cannot read the database: {exc}") from None
    if head and head != b"SQLite format 3\x00":
        raise StoreError(
            f"{path}: this is not an interviewer database (not SQLite). It was left untouched; "
            "move it aside to start a new one."
        )


class LazyStore:
    """A store opened on first use and retried on every save: the interview starts on a full disk and is
    written once space returns (the engine keeps the record in memory until then)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.store: Store | None = None

    def save_session(self, record: SessionRecord) -> None:
        if self.store is None:
            self.store = open_store(self.data_dir)
        self.store.save_session(record)

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def open_store(data_dir: Path, read_only_ok: bool = False) -> Store:
    return Store(data_dir / "interviewer.db", read_only_ok)
