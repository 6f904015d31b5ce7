"""The table's screen: fog on the map, the reflex strip, checks shown to the
players, screen control and real-size areas."""
