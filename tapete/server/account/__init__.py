"""A player's own: the signed guest cookie (:mod:`.guests`), the profile, e-mail address and
daily coins (:mod:`.account`), the shop (:mod:`.shop`), the history of their games
(:mod:`.history`)."""
