"""The phases of an Ideology turn, one module each, named as the rulebook names them."""
