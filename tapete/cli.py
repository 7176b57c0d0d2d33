"""``tapete serve``, ``tapete simulate``, ``tapete replay``."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

DEFAULT_DB = "tapete.db"

SAY_WAITING_SECONDS = 1.0
"""At a stop, after how long the log says which requests and sockets are still waited for."""
BACKSTOP_SECONDS = 1.0
"""uvicorn's own deadline for them comes this long after ours (which cuts them short
first, quietly: :class:`tapete.server.ops.logs.RequestIds`)."""

log = logging.getLogger("tapete.serve")


def database_url(db: str | None) -> str:
    """``--db`` (a file or a URL), else ``TAPETE_DATABASE_URL``, else ``tapete.db`` here."""
    from tapete.store import default_url

    value = db or os.environ.get("TAPETE_DATABASE_URL") or DEFAULT_DB
    return value if "://" in value else default_url(value)


def split_list(text: str) -> list[str]:
    """A comma-separated setting as a list (blanks dropped)."""
    return [part.strip() for part in text.split(",") if part.strip()]


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from tapete.mail import SmtpMailer, mailer
    from tapete.rooms import Settings
    from tapete.server.app import create_app
    from tapete.server.edge.limits import Limits
    from tapete.server.ops.logs import setup

    setup(args.log_level, args.log_format)
    settings = Settings(
        bot_pace=args.bot_pace,
        bot_delay=args.bot_delay,
        clocks={
            "window": args.window,
            **({"turn": args.turn_seconds} if args.turn_seconds else {}),
        },
        test_api=args.test_api,
        quick_wait=args.quick_wait or float(os.environ.get("TAPETE_QUICK_WAIT") or 20.0),
        search_workers=args.search_workers,
        search_seconds=args.search_seconds,
        **({"grace_seconds": args.grace_seconds} if args.grace_seconds is not None else {}),
    )
    limits = Limits(
        origins=tuple(split_list(args.origin or os.environ.get("TAPETE_ORIGINS", ""))),
        trusted_proxies=tuple(
            split_list(args.trusted_proxy or os.environ.get("TAPETE_TRUSTED_PROXIES", ""))
        ),
    ).with_text(" ".join([os.environ.get("TAPETE_LIMITS", ""), *args.limit]))
    redis_url = args.redis or os.environ.get("TAPETE_REDIS_URL") or None
    try:
        mail = mailer(os.environ.get("TAPETE_SMTP_URL"), os.environ.get("TAPETE_MAIL_FROM"))
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    ws, direct = websocket(args.ws)
    http = lean_http(direct is not None)
    app = create_app(
        database_url(args.db),
        settings,
        limits,
        gc_policy=args.gc_policy == "on",
        watch_load=True,
        redis_url=redis_url,
        mailer=mail,
        shutdown_seconds=args.shutdown_seconds,
        sqlite_writer=args.sqlite_writer,
        direct=direct,
        ws=args.ws if direct is not None or args.ws != "websockets-sansio" else "websockets",
    )
    print(f"Tapete en http://{args.host}:{args.port}", flush=True)
    if isinstance(mail, SmtpMailer):
        print(f"Correo por SMTP: {mail.settings.describe()}", flush=True)
    else:
        print("Correo: sin TAPETE_SMTP_URL, los mensajes se escriben en el registro", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        log_config=None,  # (logging is set up above: JSON lines, quiet sockets)
        ws=ws,
        http=http,
        ws_max_size=65536,
        ws_ping_interval=limits.socket_ping_seconds,
        ws_ping_timeout=limits.socket_ping_seconds,
        ws_per_message_deflate=limits.socket_deflate,
        server_header=False,
        proxy_headers=bool(limits.trusted_proxies),  # X-Forwarded-* from trusted proxies only
        forwarded_allow_ips=",".join(limits.trusted_proxies) or None,
        timeout_graceful_shutdown=args.shutdown_seconds + BACKSTOP_SECONDS,
    )
    # uvicorn raises the signal that stopped it again once it has stopped: for SIGTERM, a
    # stop asked for, that is a clean end (code 0), not death by the signal
    signal.signal(signal.SIGTERM, _stopped)
    hall = app.state.hall
    hall.drain_seconds = args.drain_seconds
    server(config, args.shutdown_seconds, hall.drain).run()
    return 0


def _stopped(signum: int, frame: Any) -> None:
    """SIGTERM, once uvicorn has stopped: nothing more to do."""


def server(config: Any, grace: float, drain: Any = None) -> Any:
    """uvicorn's server for ``config``, which at a stop first ``drain``s the hall (takes
    nobody new and, among several processes, hands its games over: ``Hall.drain``), then
    waits ``grace`` seconds for the requests and sockets in progress — the only tasks
    uvicorn waits for, without end unless told — then cuts short what is left (a request
    gets 503, a socket was closed with 1012 already); the log says which it still waits for
    after :data:`SAY_WAITING_SECONDS`, and where each one waits."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            if drain is not None:
                try:
                    await drain()
                except Exception:  # (a stop goes on whatever happened to the handover)
                    log.exception("stopping: the handover failed")
            loop = asyncio.get_running_loop()
            say = loop.call_later(SAY_WAITING_SECONDS, self.say_waiting)
            cut = loop.call_later(grace, self.cut_short)
            try:
                await super().shutdown(sockets)
            finally:
                say.cancel()
                cut.cancel()

        def waiting(self) -> list[asyncio.Task[None]]:
            return [t for t in self.server_state.tasks if not t.done()]

        def say_waiting(self) -> None:
            tasks, connections = self.waiting(), len(self.server_state.connections)
            if not tasks and not connections:
                return
            log.warning(
                "stopping: still waiting for %d connection(s) and %d request(s) or socket(s)",
                connections,
                len(tasks),
            )
            for task in tasks[:10]:
                log.warning("stopping: a request or socket waits in %s", waiting_in(task))

        def cut_short(self) -> None:
            tasks = self.waiting()
            if tasks:
                log.warning(
                    "stopping: %d request(s) or socket(s) cut short after %.1f s", len(tasks), grace
                )
            for task in tasks:
                task.cancel()

    return Server(config)


def waiting_in(task: asyncio.Task[Any]) -> str:
    """Where a task waits: the innermost calls of its chain of awaits."""
    names: list[str] = []
    coro: Any = task.get_coro()
    while coro is not None:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is None:
            break
        names.append(code.co_qualname)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " → ".join(names[-5:]) or repr(task)


def websocket(name: str) -> tuple[Any, Any]:
    """What uvicorn is given for ``--ws name``, and the app's way to write a frame straight
    to the transport: our lean implementation (:mod:`tapete.server.socket.wsimpl`, imported
    only when chosen) for ``websockets-sansio``, unless the installed uvicorn or websockets
    are not the versions it was tested on (then uvicorn's stock ``websockets``, said on
    stderr); uvicorn's own, as they are, for any other name."""
    if name != "websockets-sansio":
        return name, None
    from tapete.server.socket import wsimpl

    problem = wsimpl.untested()
    if problem is not None:
        print(f"--ws websockets-sansio: {problem}; se usa websockets", file=sys.stderr)
        return "websockets", None
    return wsimpl.LeanSansIOProtocol, wsimpl.direct_writer


def lean_http(lean: bool) -> Any:
    """What uvicorn is given for ``http``: with the lean sockets, uvicorn's httptools
    protocol that frees itself once upgraded (:class:`wsimpl.LeanHttpToolsProtocol`);
    otherwise uvicorn's choice, as it is."""
    if not lean:
        return "auto"
    from tapete.server.socket import wsimpl

    return wsimpl.LeanHttpToolsProtocol


def cmd_simulate(args: argparse.Namespace) -> int:
    from tapete.games import IllegalMove
    from tapete.simulate import format_report, simulate

    options = {
        "players": args.players,
        "length": args.length,
        "down": args.down,
        "ace_low": args.ace_low,
        "sums": args.sums,
        "order": args.order,
    }
    try:
        report = simulate(args.game, args.games, args.seed, options)
    except IllegalMove as exc:
        print(f"opción no válida: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else format_report(report))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a stored game's moves and where it stands, rebuilt from its log."""
    from tapete.registry import entry
    from tapete.store import Store

    async def run() -> int:
        store = Store(database_url(args.db))
        try:
            record = await store.game(args.game_id)
            if record is None:
                print(f"no existe la partida {args.game_id}", file=sys.stderr)
                return 1
            spec = entry(record.kind).game
            game = spec.rules
            state = (
                game.load(record.position)
                if record.position is not None
                else game.new(spec.parse_config(record.config), record.seed)
            )
            for logged in await store.moves(record.id):
                events = game.apply(state, logged.seat, spec.parse_move(logged.move))
                print(logged.n, logged.seat, json.dumps(logged.move), json.dumps(events))
            print(json.dumps(game.view(state, None), ensure_ascii=False))
            return 0
        finally:
            await store.close()

    return asyncio.run(run())


def cmd_ratings(args: argparse.Namespace) -> int:
    """Every rating again from the rated games' move logs (docs/ratings.md)."""
    from sqlalchemy import create_engine

    from tapete.store import migrate
    from tapete.store.players import recompute
    from tapete.store.repo import sync_url

    url = database_url(args.db)
    migrate(url)
    engine = create_engine(sync_url(url))
    try:
        with engine.begin() as conn:
            games = recompute(conn)
    finally:
        engine.dispose()
    print(f"{games} partidas puntuadas de nuevo")
    return 0


def cmd_logros(args: argparse.Namespace) -> int:
    """Every logro again from the finished games' move logs (a new logro reaches past
    games too)."""
    from tapete.rooms.logros import Logros
    from tapete.store import Store, migrate

    async def run() -> int:
        url = database_url(args.db)
        await asyncio.to_thread(migrate, url)
        store = Store(url)
        try:
            games = await Logros(store).recount()
        finally:
            await store.close()
        print(f"{games} partidas contadas de nuevo para los logros")
        return 0

    return asyncio.run(run())


def cmd_backup(args: argparse.Namespace) -> int:
    """A consistent copy of the live hall's SQLite file (it goes on meanwhile), or the hall
    brought back from one (``restore``, the hall stopped)."""
    from tapete.store.backup import NotAHall, NotSQLite, backup, restore

    url, file = database_url(args.db), Path(args.file)
    try:
        if args.command == "backup":
            print(f"copia hecha en {file}: {backup(url, file)} partidas")
        else:
            print(f"sala recuperada de {file}: {restore(file, url)} partidas")
    except NotSQLite:
        print(PG_TOOLS, file=sys.stderr)
        return 2
    except NotAHall as exc:
        print(f"no hay copia ni sala que sirva: {exc}", file=sys.stderr)
        return 1
    return 0


PG_TOOLS = (
    "la sala está en PostgreSQL: copia con pg_dump -Fc y recupera con pg_restore"
    " (README, «Backups»)"
)


def cmd_moderation(args: argparse.Namespace) -> int:
    """What players reported, and what an operator does with it: ban (bots only from then
    on), unban, dismiss a report."""
    from tapete.public_names import of as public_name
    from tapete.store import Store, migrate, utcnow

    async def run() -> int:
        url = database_url(args.db)
        await asyncio.to_thread(migrate, url)
        store = Store(url)
        players = store.players
        try:
            if args.action == "reports":
                reports = await players.reports(None if args.all else "open")
                names = await players.public_names(
                    sorted({r.reporter for r in reports} | {r.reported for r in reports})
                )
                for r in reports:
                    who = public_name(r.reported, names.get(r.reported)).words("es")
                    by = public_name(r.reporter, names.get(r.reporter)).words("es")
                    print(
                        f"#{r.id} {r.at:%Y-%m-%d %H:%M} {r.status:9} {r.reason:9} "
                        f"{r.reported} ({who}) por {r.reporter} ({by}) "
                        f"partida {r.game_id or '-'}"
                    )
                if not reports:
                    print("no hay denuncias" + ("" if args.all else " abiertas"))
                return 0
            if args.target is None:
                print(f"{args.action}: falta a quién (un invitado, o el número de la denuncia)")
                return 2
            target = str(args.target)
            if args.action == "ban":
                done = await players.ban(target, utcnow())
            elif args.action == "unban":
                done = await players.unban(target)
            else:
                number = target.lstrip("#")
                done = number.isdigit() and await players.dismiss(int(number))
            if not done:
                print(f"{args.action} {args.target}: no había nada que cambiar", file=sys.stderr)
                return 1
            print(f"{args.action} {args.target}: hecho")
            return 0
        finally:
            await store.close()

    return asyncio.run(run())


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapete", description="Tapete: juegos de cartas")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="arranca Tapete en http://127.0.0.1:8000")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--db", help="fichero SQLite o URL de base de datos (TAPETE_DATABASE_URL)")
    s.add_argument(
        "--redis",
        help="URL de Redis para varios procesos como un solo Tapete (TAPETE_REDIS_URL); "
        "con PostgreSQL como base de datos",
    )
    s.add_argument(
        "--bot-pace",
        type=float,
        default=1.0,
        help="multiplica lo que «piensa» cada bot (0: al instante)",
    )
    s.add_argument("--bot-delay", type=float, default=0.0, help="segundos de más para cada bot")
    s.add_argument("--window", type=float, default=3.0, help="plazo para pillar en One Card (s)")
    s.add_argument("--turn-seconds", type=float, default=None, help="reloj de turno (s)")
    s.add_argument(
        "--origin",
        help="orígenes admitidos además del propio, separados por comas (TAPETE_ORIGINS)",
    )
    s.add_argument(
        "--trusted-proxy",
        help="direcciones del proxy cuyas cabeceras X-Forwarded-* se creen"
        " (TAPETE_TRUSTED_PROXIES)",
    )
    s.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NOMBRE=VALOR",
        help="cambia un límite (docs/security.md; también TAPETE_LIMITS)",
    )
    s.add_argument(
        "--shutdown-seconds",
        type=float,
        default=5.0,
        help="al parar (SIGTERM): segundos de espera a las peticiones y conexiones en curso, "
        "y luego a cada parte de la sala; lo que no acabe se cancela",
    )
    s.add_argument(
        "--drain-seconds",
        type=float,
        default=float(os.environ.get("TAPETE_DRAIN_SECONDS", "3")),
        help="con varios procesos, al parar (SIGTERM): segundos que se sigue jugando mientras "
        "el proxy deja de mandar conexiones nuevas, antes de pasar las partidas a los demás",
    )
    s.add_argument("--test-api", action="store_true", help=argparse.SUPPRESS)
    s.add_argument("--grace-seconds", type=float, default=None, help=argparse.SUPPRESS)
    s.add_argument(
        "--quick-wait",
        type=float,
        default=None,
        help="«Jugar ahora»: segundos de espera como mucho antes de que los bots ocupen los "
        "asientos vacíos (TAPETE_QUICK_WAIT; 20)",
    )
    s.add_argument(
        "--search-workers",
        type=int,
        default=int(os.environ.get("TAPETE_SEARCH_WORKERS") or 1),
        help="procesos que calculan las jugadas de los bots que buscan, compartidos por todas"
        " las mesas; 0: en un hilo, como los demás (TAPETE_SEARCH_WORKERS; 1)",
    )
    s.add_argument(
        "--search-seconds",
        type=float,
        default=float(os.environ.get("TAPETE_SEARCH_SECONDS") or 0.15),
        help="lo más que piensa un bot que busca cada jugada, en segundos"
        " (TAPETE_SEARCH_SECONDS; 0.15)",
    )
    s.add_argument("--log-level", default="info")
    s.add_argument(
        "--log-format",
        default="json",
        choices=["json", "text"],
        help="json: un objeto por línea (operadores); text: para leer en la terminal",
    )
    s.add_argument(
        "--ws",
        default=os.environ.get("TAPETE_WS") or "websockets-sansio",
        choices=["websockets-sansio", "websockets", "wsproto"],
        help="WebSocket de uvicorn: websockets-sansio, el nuestro, ligero (bench/RESULTS.md);"
        " websockets o wsproto, los de uvicorn tal cual (wsproto: pip install wsproto)"
        " (TAPETE_WS)",
    )
    s.add_argument(
        "--gc-policy",
        default=os.environ.get("TAPETE_GC_POLICY") or "on",
        choices=["on", "off"],
        help="on: pausas cortas del recolector de basura (gcpolicy.py); off: el de Python"
        " tal cual (TAPETE_GC_POLICY)",
    )
    s.add_argument(
        "--sqlite-writer",
        default=os.environ.get("TAPETE_SQLITE_WRITER") or "loop",
        choices=["loop", "thread"],
        help="con SQLite, dónde se escriben las jugadas: loop, en el bucle de eventos;"
        " thread, en un hilo propio, como SQLite de serie (TAPETE_SQLITE_WRITER)",
    )
    s.set_defaults(func=cmd_serve)

    m = sub.add_parser("simulate", help="partidas aleatorias con semilla, y sus cifras")
    m.add_argument("game", choices=["guerra"])
    m.add_argument("--games", type=int, default=1000)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--players", type=int, default=2)
    m.add_argument("--length", default="final", choices=["corta", "media", "final"])
    m.add_argument("--down", type=int, default=3)
    m.add_argument("--ace-low", action="store_true")
    m.add_argument("--sums", action="store_true")
    m.add_argument("--order", default="random", choices=["random", "fixed"])
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=cmd_simulate)

    r = sub.add_parser("replay", help="reconstruye una partida guardada desde su registro")
    r.add_argument("game_id")
    r.add_argument("--db")
    r.set_defaults(func=cmd_replay)

    t = sub.add_parser("ratings", help="recalcula las puntuaciones desde las partidas (recompute)")
    t.add_argument("action", choices=["recompute"])
    t.add_argument("--db")
    t.set_defaults(func=cmd_ratings)

    g = sub.add_parser("logros", help="cuenta de nuevo los logros desde las partidas (recount)")
    g.add_argument("action", choices=["recount"])
    g.add_argument("--db")
    g.set_defaults(func=cmd_logros)

    b = sub.add_parser("backup", help="copia coherente de la sala SQLite, sin pararla")
    b.add_argument("file", help="el fichero de la copia")
    b.add_argument("--db")
    b.set_defaults(func=cmd_backup, command="backup")

    b = sub.add_parser("restore", help="recupera la sala SQLite de una copia (con la sala parada)")
    b.add_argument("file", help="el fichero de la copia")
    b.add_argument("--db")
    b.set_defaults(func=cmd_backup, command="restore")

    o = sub.add_parser("moderation", help="denuncias de jugadores: ver, expulsar, readmitir")
    o.add_argument("action", choices=["reports", "ban", "unban", "dismiss"])
    o.add_argument("target", nargs="?", help="el invitado (ban, unban) o la denuncia (dismiss)")
    o.add_argument("--all", action="store_true", help="reports: también las ya resueltas")
    o.add_argument("--db")
    o.set_defaults(func=cmd_moderation)

    c = sub.add_parser("catalogs", help="extrae los textos (update) o comprueba los catálogos")
    c.add_argument("action", choices=["update", "check"])
    c.set_defaults(func=cmd_catalogs)
    return p


def cmd_catalogs(args: argparse.Namespace) -> int:
    from tapete.catalogs import main as catalogs

    return catalogs([args.action])


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
