"""The table's screen (issue 17): fog on the map, the reflex strip, checks shown to the
players, screen control and real-size areas."""
