"""The chase board: a view of the chase that replaces the map while the
encounter is a chase (the map stays one click away), and its player-view variant."""
