"""The contested check (E4-E8, E12-E14, E17, R3-R12): which checks there are
(:mod:`.checks`), assembling one from the map and the model with every modifier and its
reason (:mod:`.assembly`), the defense side in progress (:mod:`.defense_side`), running it
step by step for the dialog and scripts (:mod:`.flow`) and spending after the roll
(:mod:`.spends`: Shifts, Will, the retry of 6s)."""
