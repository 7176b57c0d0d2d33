"""What a browser reads: the hall, each game's setup page, table, rules and guides
(:mod:`.games`), private rooms' pages and their HTTP API (:mod:`.rooms`), a finished game's
replay (:mod:`.replay`) and fair deck (:mod:`.fairness`), the installable app's shell
(:mod:`.app_shell`), the games' JSON API (:mod:`.api`); and what they are made with:
templates in the player's language (:mod:`.render`), setup forms read from a game's options
(:mod:`.forms`), versioned static files (:mod:`.assets`)."""
