"""The message catalog: every player-facing string, Spanish first, English second.

>>> t("error.not_your_turn")
'No es tu turno.'
>>> t("error.not_your_turn", lang="en")
"It's not your turn."
>>> t("guerra.won", lang="es", name="Ana", cards=10)
'Ana gana 10 cartas.'
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("es", "en")
DEFAULT_LANG: Final = "es"

CATALOG: Final[dict[str, dict[str, str]]] = {
    # errors shared by every game and by the socket
    "error.not_your_turn": {"es": "No es tu turno.", "en": "It's not your turn."},
    "error.game_over": {"es": "La partida ya ha terminado.", "en": "The game is over."},
    "error.unknown_move": {
        "es": "Ese movimiento no existe en este juego.",
        "en": "That move does not exist in this game.",
    },
    "error.bad_move": {"es": "Movimiento mal formado: {detail}", "en": "Malformed move: {detail}"},
    "error.bad_config": {"es": "Opción no válida: {detail}", "en": "Invalid option: {detail}"},
    "error.bad_json": {
        "es": "El mensaje no es JSON válido.",
        "en": "The message is not valid JSON.",
    },
    "error.bad_message": {
        "es": "Mensaje no válido: {detail}",
        "en": "Invalid message: {detail}",
    },
    "error.unknown_type": {
        "es": "Tipo de mensaje desconocido: «{type}».",
        "en": "Unknown message type: '{type}'.",
    },
    "error.stale_version": {
        "es": "Tu mesa estaba desactualizada (versión {got}, la actual es {current}). "
        "Ya la hemos puesto al día; vuelve a intentarlo.",
        "en": "Your table was out of date (version {got}, current is {current}). "
        "It is up to date now; try again.",
    },
    "error.not_your_game": {
        "es": "Esa partida no existe o no es tuya.",
        "en": "That game does not exist or is not yours.",
    },
    "error.not_joined": {
        "es": "Primero hay que unirse a una partida.",
        "en": "Join a game first.",
    },
    "error.spectator": {
        "es": "Estás mirando: no tienes asiento en esta partida.",
        "en": "You are watching: you have no seat in this game.",
    },
    "error.busy": {
        "es": "La sala está ocupada; inténtalo de nuevo.",
        "en": "The room is busy; try again.",
    },
    # pages
    "ui.skip": {"es": "Saltar al contenido", "en": "Skip to content"},
    "ui.home": {"es": "Tapete, inicio", "en": "Tapete, home"},
    "ui.nav": {"es": "Navegación", "en": "Navigation"},
    "ui.rules": {"es": "Reglas", "en": "Rules"},
    "ui.footer": {
        "es": "Tapete · juegos de cartas en el navegador, sin instalar nada.",
        "en": "Tapete · card games in the browser, nothing to install.",
    },
    "ui.you": {"es": "Tú", "en": "You"},
    "ui.you_inline": {"es": "tú", "en": "you"},
    "ui.and": {"es": " y ", "en": " and "},
    "ui.connecting": {"es": "Conectando…", "en": "Connecting…"},
    "ui.reconnecting": {"es": "Sin conexión. Reconectando…", "en": "Offline. Reconnecting…"},
    "ui.new_game": {"es": "Nueva partida", "en": "New game"},
    "ui.change_options": {"es": "Cambiar opciones", "en": "Change options"},
    "ui.to_hall": {"es": "Volver a la sala", "en": "Back to the hall"},
    # La guerra, the table
    "guerra.turn": {"es": "Dar la vuelta", "en": "Turn over"},
    "guerra.turn_war": {"es": "¡A la guerra!", "en": "To war!"},
    "guerra.wait": {"es": "Esperando…", "en": "Waiting…"},
    "guerra.autoplay": {"es": "Juego automático", "en": "Autoplay"},
    "guerra.speed": {"es": "Velocidad", "en": "Speed"},
    "guerra.speed.slow": {"es": "Lenta", "en": "Slow"},
    "guerra.speed.normal": {"es": "Normal", "en": "Normal"},
    "guerra.speed.fast": {"es": "Rápida", "en": "Fast"},
    "guerra.speed.instant": {"es": "Al instante", "en": "Instant"},
    "guerra.duel": {"es": "Duelo", "en": "Duel"},
    "guerra.duel_of": {"es": "Duelo {n} de {limit}", "en": "Duel {n} of {limit}"},
    "guerra.duel_n": {"es": "Duelo {n}", "en": "Duel {n}"},
    "guerra.wars": {"es": "Guerras", "en": "Wars"},
    "guerra.cards": {"es": "{n} cartas", "en": "{n} cards"},
    "guerra.card1": {"es": "1 carta", "en": "1 card"},
    "guerra.out": {"es": "Eliminado", "en": "Out"},
    "guerra.war": {"es": "¡Guerra!", "en": "War!"},
    "guerra.war_between": {"es": "¡Guerra entre {names}!", "en": "War between {names}!"},
    "guerra.face_down": {"es": "{n} boca abajo", "en": "{n} face down"},
    "guerra.press": {
        "es": "Pulsa «Dar la vuelta» o la barra espaciadora.",
        "en": "Press «Turn over» or the space bar.",
    },
    "guerra.beats": {"es": "{card} gana a {other}", "en": "{card} beats {other}"},
    "guerra.why.higher": {
        "es": "{name} se lleva {cards} cartas con {card}.",
        "en": "{name} takes {cards} cards with {card}.",
    },
    "guerra.why.higher_you": {
        "es": "Te llevas {cards} cartas con {card}.",
        "en": "You take {cards} cards with {card}.",
    },
    "guerra.why.no_cards": {
        "es": "{name} se lleva {cards} cartas: el resto se quedó sin cartas.",
        "en": "{name} takes {cards} cards: the others ran out.",
    },
    "guerra.why.carry": {
        "es": "Nadie gana: las cartas se quedan en la mesa para el siguiente duelo.",
        "en": "Nobody wins: the cards stay on the table for the next duel.",
    },
    "guerra.sum": {"es": "suma {n}", "en": "sum {n}"},
    "guerra.carry": {
        "es": "{n} cartas en juego del duelo anterior",
        "en": "{n} cards carried over",
    },
    "guerra.end.win_you": {"es": "¡Has ganado!", "en": "You won!"},
    "guerra.end.win": {"es": "Gana {name}", "en": "{name} wins"},
    "guerra.end.draw": {"es": "Empate", "en": "Draw"},
    "guerra.reason.all_cards": {
        "es": "Se ha quedado con todas las cartas.",
        "en": "Took every card.",
    },
    "guerra.reason.limit": {
        "es": "Más cartas al llegar al límite de {limit} duelos.",
        "en": "Most cards at the limit of {limit} duels.",
    },
    "guerra.reason.draw_limit": {
        "es": "Mismo número de cartas al llegar al límite de {limit} duelos.",
        "en": "Equal cards at the limit of {limit} duels.",
    },
    "guerra.reason.draw_war": {
        "es": "Todos se quedaron sin cartas en la misma guerra, empatados.",
        "en": "Everyone ran out in the same war, still tied.",
    },
    "guerra.reason.loop": {
        "es": "La partida se repite sin fin (orden fijo de las cartas ganadas).",
        "en": "The game repeats for ever (fixed order of won cards).",
    },
    "guerra.end.stats": {
        "es": "{duels} duelos · {wars} guerras",
        "en": "{duels} duels · {wars} wars",
    },
    "guerra.your_turn": {
        "es": "Te toca: da la vuelta a tu carta.",
        "en": "Your turn: turn your card.",
    },
    "guerra.log": {"es": "Últimos duelos", "en": "Last duels"},
    "guerra.log.line": {"es": "{who} → {winner} (+{cards})", "en": "{who} → {winner} (+{cards})"},
    "guerra.log.nobody": {"es": "nadie", "en": "nobody"},
    "guerra.ready": {"es": "Preparado para el duelo {n}.", "en": "Ready for duel {n}."},
    # El Peaje, the table
    "peaje.odds": {"es": "Probabilidades", "en": "Odds"},
    "peaje.route": {"es": "La ruta", "en": "The route"},
    "peaje.table": {"es": "La mesa", "en": "The table"},
    "peaje.reference": {"es": "Referencia", "en": "Reference"},
    "peaje.toll_done": {"es": "Sí, peaje cumplido", "en": "Yes, toll paid"},
    "peaje.ready": {"es": "Estoy listo", "en": "I'm ready"},
    "peaje.again": {"es": "Otra partida (cartas nuevas)", "en": "Another game (new shuffle)"},
    "peaje.guide": {"es": "La guía", "en": "The guide"},
    "peaje.number": {"es": "Nº {n}", "en": "No. {n}"},
    "peaje.player_n": {"es": "Jugador {n}", "en": "Player {n}"},
    "peaje.over": {"es": "Fin de la partida", "en": "Game over"},
    "peaje.variant.solitario": {"es": "Solitario", "en": "Solo"},
    "peaje.turn_of": {"es": "Turno de {name}", "en": "{name}'s turn"},
    "peaje.dos.answer_aloud": {
        "es": "{name} responde en voz alta",
        "en": "{name} answers aloud",
    },
    "peaje.dos.answerer": {"es": "Quien responde", "en": "The answerer"},
    "peaje.dos.validator": {"es": "{name} valida", "en": "{name} checks"},
    "peaje.dos.checker": {"es": "Quien valida", "en": "The checker"},
    "peaje.dos.say": {
        "es": "Di tu respuesta en voz alta; luego quien valida pulsa «Revelar».",
        "en": "Say your answer aloud; then the checker presses «Reveal».",
    },
    "peaje.dos.reveal": {"es": "Revelar", "en": "Reveal"},
    "peaje.dos.mark": {
        "es": "¿Ha acertado? (Valía: {right})",
        "en": "Was it right? (Right was: {right})",
    },
    "peaje.mark_hit": {"es": "Acierto", "en": "Right"},
    "peaje.mark_miss": {"es": "Fallo", "en": "Wrong"},
    "peaje.tie": {"es": "nada: empate", "en": "nothing: a tie"},
    "peaje.tie_row": {"es": "Empate (fallo)", "en": "Tie (a miss)"},
    "peaje.start": {"es": "Salida", "en": "Start"},
    "peaje.toll": {"es": "Peaje", "en": "Toll"},
    "peaje.short.mayor_menor": {"es": "Mayor o menor", "en": "Higher or lower"},
    "peaje.short.redonda_picuda": {"es": "Redonda o picuda", "en": "Round or pointy"},
    "peaje.short.roja_negra": {"es": "Roja o negra", "en": "Red or black"},
    "peaje.short.palo": {"es": "Palo", "en": "Suit"},
    "peaje.revealed": {"es": "Revelada", "en": "Revealed"},
    "peaje.hit": {"es": "¡Acierto!", "en": "Right!"},
    "peaje.miss": {"es": "Fallo", "en": "Wrong"},
    "peaje.next_card": {"es": "la siguiente carta", "en": "the next card"},
    "peaje.cards_left": {"es": "Quedan {n}", "en": "{n} left"},
    "peaje.a.mayor": {"es": "▲ Mayor", "en": "▲ Higher"},
    "peaje.a.menor": {"es": "▼ Menor", "en": "▼ Lower"},
    "peaje.a.redonda": {"es": "● Redonda ♥♣", "en": "● Round ♥♣"},
    "peaje.a.picuda": {"es": "◆ Picuda ♦♠", "en": "◆ Pointy ♦♠"},
    "peaje.a.roja": {"es": "Roja ♥♦", "en": "Red ♥♦"},
    "peaje.a.negra": {"es": "Negra ♣♠", "en": "Black ♣♠"},
    "peaje.q.mayor_menor": {
        "es": "¿La siguiente será mayor o menor que el {card}?",
        "en": "Will the next be higher or lower than the {card}?",
    },
    "peaje.q.redonda_picuda": {"es": "¿Redonda o picuda?", "en": "Round or pointy?"},
    "peaje.q.roja_negra": {"es": "¿Roja o negra?", "en": "Red or black?"},
    "peaje.q.palo": {"es": "¿De qué palo?", "en": "Which suit?"},
    "peaje.miss_text": {
        "es": "Fallo: ha salido el {card}. Se retira del mazo.",
        "en": "Wrong: the {card} came up. It leaves the deck.",
    },
    "peaje.miss_tie": {
        "es": "Empate con el {card}: cuenta como fallo.",
        "en": "A tie with the {card}: it counts as a miss.",
    },
    "peaje.confirm_miss": {"es": "Confirmar fallo", "en": "Confirm the miss"},
    "peaje.odds_title": {
        "es": "Con las cartas que aún no han salido:",
        "en": "With the cards not seen yet:",
    },
    "peaje.odds_how": {"es": "Cómo se calcula", "en": "How it is counted"},
    "peaje.out": {"es": "sin cartas", "en": "out of cards"},
    "peaje.counter": {
        "es": "Fallos: {misses} · peajes: {tolls} · quedan {left} cartas",
        "en": "Misses: {misses} · Tolls: {tolls} · {left} cards left",
    },
    "peaje.coop_left": {
        "es": "Fallos que os quedan: {n}",
        "en": "Misses you can still afford: {n}",
    },
    "peaje.toll_forward": {"es": "¡Peaje!", "en": "Toll!"},
    "peaje.toll_back": {"es": "¡Peaje! (de vuelta)", "en": "Toll! (going back)"},
    "peaje.toll_pay": {"es": "Toca pagar: {what}.", "en": "Time to pay: {what}."},
    "peaje.payer": {"es": "Paga el número", "en": "Paid by number"},
    "peaje.handover": {"es": "Turno de {name}", "en": "{name}'s turn"},
    "peaje.handover_rapid": {
        "es": "Pasa el móvil. Tu ruta sigue donde la dejaste: posición {pos}, fallos: {misses}.",
        "en": "Pass the phone. Your route is where you left it: position {pos}, {misses} misses.",
    },
    "peaje.end.win": {"es": "¡Gana {name}!", "en": "{name} wins!"},
    "peaje.end.done": {"es": "¡Ruta completada!", "en": "Route completed!"},
    "peaje.end.lost": {"es": "Fin del camino", "en": "End of the road"},
    "peaje.reason.route": {
        "es": "Se acertó la última pregunta de la ruta.",
        "en": "The last question of the route was answered right.",
    },
    "peaje.reason.deck": {
        "es": "Se acabó el mazo antes de terminar la ruta.",
        "en": "The deck ran out before the route was done.",
    },
    "peaje.reason.misses": {
        "es": "Seis fallos: el grupo pierde.",
        "en": "Six misses: the group loses.",
    },
    "peaje.reason.all_out": {
        "es": "Todos se quedaron sin cartas: nadie gana.",
        "en": "Everyone ran out of cards: nobody wins.",
    },
    "peaje.end.stats": {
        "es": "Cartas usadas: {used} · fallos: {misses} · peajes: {tolls}",
        "en": "{used} cards used · {misses} misses · {tolls} tolls",
    },
    # Rummy de fichas, the table
    "rummy.players": {"es": "Jugadores", "en": "Players"},
    "rummy.table": {"es": "La mesa", "en": "The table"},
    "rummy.rack": {"es": "Tu atril", "en": "Your rack"},
    "rummy.log": {"es": "Últimas jugadas", "en": "Last moves"},
    "rummy.sort_number": {"es": "Ordenar por número", "en": "Sort by number"},
    "rummy.sort_colour": {"es": "Ordenar por color", "en": "Sort by colour"},
    "rummy.undo": {"es": "Deshacer", "en": "Undo"},
    "rummy.hint": {"es": "Pista", "en": "Hint"},
    "rummy.no_hint": {
        "es": "No hay jugada: roba (o pasa).",
        "en": "No play: draw (or pass).",
    },
    "rummy.draw": {"es": "Robar", "en": "Draw"},
    "rummy.pass": {"es": "Pasar", "en": "Pass"},
    "rummy.done": {"es": "Terminar turno", "en": "End turn"},
    "rummy.keys": {
        "es": "Arrastra las fichas, o tócalas para elegirlas y toca dónde ponerlas "
        "(+ al final de una combinación, «Nueva combinación», o tu atril). "
        "Con teclado: Tab, Intro para elegir y colocar, R para devolver al atril, Esc para soltar.",
        "en": "Drag tiles, or tap one to pick it and tap where it goes "
        "(+ at the end of a set, «New set», or your rack). "
        "Keyboard: Tab, Enter to pick and place, R back to the rack, Esc to drop.",
    },
    "rummy.your_turn": {"es": "Te toca", "en": "Your turn"},
    "rummy.turn_of": {"es": "Turno de {name}", "en": "{name}'s turn"},
    "rummy.match_over": {"es": "Partida terminada", "en": "Match over"},
    "rummy.hand_of": {"es": "Mano {n} de {of}", "en": "Hand {n} of {of}"},
    "rummy.pool": {"es": "Pozo: {n}", "en": "Pool: {n}"},
    "rummy.melded": {"es": "ha bajado", "en": "melded"},
    "rummy.tiles_n": {"es": "{n} fichas", "en": "{n} tiles"},
    "rummy.one_tile": {"es": "1 ficha", "en": "1 tile"},
    "rummy.points": {"es": "{n} ptos.", "en": "{n} pts"},
    "rummy.joker": {"es": "comodín", "en": "joker"},
    "rummy.joker_short": {"es": "COMODÍN", "en": "JOKER"},
    "rummy.picked": {"es": "elegida", "en": "picked"},
    "rummy.set_n": {"es": "Combinación {n}", "en": "Set {n}"},
    "rummy.set_value": {"es": "Vale {n} puntos", "en": "Worth {n} points"},
    "rummy.place_end": {
        "es": "Poner la ficha elegida al final de la combinación {n}",
        "en": "Put the picked tile at the end of set {n}",
    },
    "rummy.new_set": {"es": "+ Nueva combinación", "en": "+ New set"},
    "rummy.empty_table": {
        "es": "La mesa está vacía: la primera bajada necesita 30 puntos.",
        "en": "The table is empty: the first meld needs 30 points.",
    },
    "rummy.no_back": {
        "es": "Esa ficha ya estaba en la mesa: no puede volver a tu atril.",
        "en": "That tile was on the table: it can't go back to your rack.",
    },
    "rummy.meld_progress": {"es": "Bajada: {n} / 30", "en": "Meld: {n} / 30"},
    "rummy.wait": {"es": "Espera tu turno.", "en": "Wait for your turn."},
    "rummy.ready": {
        "es": "Todo correcto: pulsa «Terminar turno».",
        "en": "All good: press «End turn».",
    },
    "rummy.where": {
        "es": "¿Dónde la pones? Toca una combinación, «Nueva combinación» o tu atril.",
        "en": "Where does it go? Tap a set, «New set» or your rack.",
    },
    "rummy.how": {
        "es": "Coloca fichas en la mesa (puedes reorganizarla) o roba.",
        "en": "Put tiles on the table (you may rearrange it) or draw.",
    },
    "rummy.how_meld": {
        "es": "Tu bajada inicial: combinaciones nuevas de tu atril que sumen 30 o más. O roba.",
        "en": "Your initial meld: new sets from your rack worth 30 or more. Or draw.",
    },
    "rummy.log.play": {"es": "{name} pone {tiles}", "en": "{name} lays {tiles}"},
    "rummy.log.play_you": {"es": "Pones {tiles}", "en": "You lay {tiles}"},
    "rummy.log.meld": {"es": "(bajada de {n})", "en": "(a {n}-point meld)"},
    "rummy.log.draw": {"es": "{name} roba", "en": "{name} draws"},
    "rummy.log.draw_you": {"es": "Robas", "en": "You draw"},
    "rummy.log.pass": {"es": "{name} pasa", "en": "{name} passes"},
    "rummy.hand_over": {"es": "Fin de la mano {n}", "en": "End of hand {n}"},
    "rummy.next_hand": {"es": "Siguiente mano", "en": "Next hand"},
    "rummy.match_won": {"es": "¡Has ganado la partida!", "en": "You won the match!"},
    "rummy.match_winner": {"es": "Gana {name}", "en": "{name} wins"},
    "rummy.blocked": {
        "es": "El pozo se agotó y todos pasaron: gana quien tiene menos puntos ({name}).",
        "en": "The pool ran out and everyone passed: fewest points wins ({name}).",
    },
    "rummy.emptied": {"es": "{name} se quedó sin fichas.", "en": "{name} emptied the rack."},
    "rummy.emptied_you": {"es": "Te quedaste sin fichas.", "en": "You emptied your rack."},
    "rummy.blocked_you": {
        "es": "El pozo se agotó y todos pasaron: ganas con menos puntos.",
        "en": "The pool ran out and everyone passed: you win with the fewest points.",
    },
    "rummy.delta": {"es": "{name}: {d} (total {total})", "en": "{name}: {d} (total {total})"},
    # One Card, the table
    "onecard.table": {"es": "Mesa de One Card", "en": "One Card table"},
    "onecard.log": {"es": "Últimas jugadas", "en": "Last moves"},
    "onecard.your_hand": {"es": "Tu mano", "en": "Your hand"},
    "onecard.draw": {"es": "Robar", "en": "Draw"},
    "onecard.draw_n": {"es": "Robar {n}", "en": "Draw {n}"},
    "onecard.call": {"es": "¡One Card!", "en": "One Card!"},
    "onecard.called": {"es": "¡One Card!", "en": "One Card!"},
    "onecard.catch": {"es": "¡Pillado!", "en": "Caught!"},
    "onecard.keys": {
        "es": "Teclado: flechas y Intro para echar, D para robar, U para One Card.",
        "en": "Keys: arrows and Enter to play, D to draw, U for One Card.",
    },
    "onecard.choose_suit": {"es": "¿Qué palo pides?", "en": "Which suit?"},
    "onecard.cancel": {"es": "Cancelar", "en": "Cancel"},
    "onecard.your_turn": {"es": "Te toca", "en": "Your turn"},
    "onecard.turn_of": {"es": "Turno de {name}", "en": "{name}'s turn"},
    "onecard.cards": {"es": "{n} cartas", "en": "{n} cards"},
    "onecard.card1": {"es": "1 carta", "en": "1 card"},
    "onecard.stock": {"es": "Mazo: {n} cartas", "en": "Stock: {n} cards"},
    "onecard.suit_named": {"es": "Pide {suit}", "en": "{suit} asked"},
    "onecard.any_suit": {"es": "Cualquier carta", "en": "Any card"},
    "onecard.attack_on": {"es": "+{n} para {name}", "en": "+{n} for {name}"},
    "onecard.attack_you": {"es": "¡+{n} para ti!", "en": "+{n} for you!"},
    "onecard.direction.cw": {"es": "Sentido: ⟳ horario", "en": "Direction: ⟳ clockwise"},
    "onecard.direction.ccw": {
        "es": "Sentido: ⟲ antihorario",
        "en": "Direction: ⟲ counter-clockwise",
    },
    "onecard.why.not_turn": {"es": "Espera tu turno.", "en": "Wait for your turn."},
    "onecard.why.playable": {
        "es": "No puedes robar: tienes una carta que sirve (resaltada).",
        "en": "You can't draw: you hold a card that fits (raised).",
    },
    "onecard.why.pass_attack": {
        "es": "No puedes robar: tienes una carta para pasar el ataque.",
        "en": "You can't draw: you hold a card that passes the attack.",
    },
    "onecard.why.draw": {"es": "No te sirve ninguna carta: roba.", "en": "Nothing fits: draw."},
    "onecard.why.take_attack": {
        "es": "No puedes pasar el ataque: roba {n}.",
        "en": "You can't pass the attack: draw {n}.",
    },
    "onecard.why.call_now": {
        "es": "¡Te queda una carta! Pulsa «One Card» antes de que te pillen.",
        "en": "One card left! Press «One Card» before you are caught.",
    },
    "onecard.log.play": {"es": "{name} echa {card}", "en": "{name} plays {card}"},
    "onecard.log.play_you": {"es": "Echas {card}", "en": "You play {card}"},
    "onecard.log.suit": {"es": " y pide {suit}", "en": " and asks for {suit}"},
    "onecard.log.attack": {"es": ": +{n} para {name}", "en": ": +{n} for {name}"},
    "onecard.log.skip": {"es": ": {name} pierde el turno", "en": ": {name} is skipped"},
    "onecard.log.reverse": {"es": ": cambia el sentido", "en": ": direction reversed"},
    "onecard.log.blocked": {"es": ": ¡ataque parado!", "en": ": attack stopped!"},
    "onecard.log.draw": {"es": "{name} roba {cards}", "en": "{name} draws {cards}"},
    "onecard.log.draw_you": {"es": "Robas {cards}", "en": "You draw {cards}"},
    "onecard.log.draw_attack": {
        "es": "{name} se come el ataque: roba {n}",
        "en": "{name} takes the attack: draws {n}",
    },
    "onecard.log.draw_attack_you": {
        "es": "Te comes el ataque: robas {n}",
        "en": "You take the attack: draw {n}",
    },
    "onecard.log.call": {"es": "{name}: «¡One Card!»", "en": "{name}: «One Card!»"},
    "onecard.log.caught_you": {
        "es": "Pillas a {name}: roba {n}",
        "en": "You catch {name}: draws {n}",
    },
    "onecard.log.caught": {
        "es": "{by} pilla a {name}: roba {n}",
        "en": "{by} catches {name}: draws {n}",
    },
    "onecard.log.timeout": {"es": " (se acabó el tiempo)", "en": " (time ran out)"},
    "onecard.log.turn_limit": {
        "es": "Mil turnos: la mano termina y gana quien tiene menos cartas",
        "en": "A thousand turns: the hand ends, fewest cards wins",
    },
    "onecard.end.win_you": {"es": "¡Has ganado!", "en": "You won!"},
    "onecard.end.win": {"es": "Gana {name}", "en": "{name} wins"},
    "onecard.end.limit": {
        "es": "La mano llegó a los mil turnos: gana quien tiene menos cartas.",
        "en": "The hand reached a thousand turns: fewest cards wins.",
    },
    "onecard.end.rank": {"es": "{rank}.º {name}: {left}", "en": "#{rank} {name}: {left}"},
    # One Card, errors
    "error.not_in_hand": {"es": "No tienes el {card}.", "en": "You don't hold the {card}."},
    "error.no_match": {
        "es": "El {card} no sirve: hay que echar {suit} o un {rank}.",
        "en": "The {card} doesn't fit: play {suit} or a {rank}.",
    },
    "error.must_answer_attack": {
        "es": "Te atacan con +{attack}: solo puedes pasar el ataque con otro {rank}, o robar.",
        "en": "You are under a +{attack} attack: pass it with another {rank}, or draw.",
    },
    "error.must_play": {
        "es": "Tienes una carta que puedes echar: no se puede robar.",
        "en": "You hold a card you can play: you may not draw.",
    },
    "error.must_pass_attack": {
        "es": "Tienes una carta para pasar el ataque: no se puede robar.",
        "en": "You hold a card that passes the attack: you may not draw.",
    },
    "error.seven_needs_suit": {
        "es": "Al echar un 7 hay que elegir palo.",
        "en": "Playing a 7 means naming a suit.",
    },
    "error.special_finish": {
        "es": "No se puede terminar con una carta especial (regla de la casa).",
        "en": "You may not finish on a special card (house rule).",
    },
    "error.cannot_call": {
        "es": "Solo puedes cantar «One Card» con dos cartas o justo al quedarte con una.",
        "en": "Call «One Card» with two cards, or right after you are left with one.",
    },
    "error.nothing_to_catch": {
        "es": "No hay nadie a quien pillar.",
        "en": "There is nobody to catch.",
    },
    "error.no_window": {"es": "No hay plazo abierto.", "en": "No window is open."},
    # El Peaje, errors
    "error.wrong_step": {
        "es": "Ahora no toca eso: primero hay que {step}.",
        "en": "Not now: first {step}.",
    },
    "error.bad_answer": {
        "es": "Esa respuesta no vale para esta pregunta.",
        "en": "That answer doesn't fit this question.",
    },
    # Rummy, errors (the play's own checks carry their own sentences)
    "error.pool_empty": {
        "es": "El pozo está vacío: no se puede robar; pasa.",
        "en": "The pool is empty: you can't draw; pass.",
    },
    "error.must_draw": {
        "es": "Aún quedan fichas en el pozo: roba en vez de pasar.",
        "en": "The pool still has tiles: draw instead of passing.",
    },
    # La guerra, errors
    "guerra.won": {"es": "{name} gana {cards} cartas.", "en": "{name} wins {cards} cards."},
    "guerra.no_cards": {
        "es": "No te quedan cartas para dar la vuelta.",
        "en": "You have no cards left to turn.",
    },
}


def t(key: str, lang: str = DEFAULT_LANG, **params: object) -> str:
    """Look up ``key`` in ``lang`` (falling back to Spanish) and fill in ``params``."""
    entry = CATALOG.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return text.format(**params) if params else text


def pick_lang(value: str | None) -> str:
    """Choose a supported language from a cookie or an Accept-Language header."""
    if value:
        for part in value.split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGS:
                return code
    return DEFAULT_LANG
