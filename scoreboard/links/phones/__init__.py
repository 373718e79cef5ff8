"""Players' phones as buttons (issue 26): `clock` (the phone's fit, the board's measure of its link, the clamp) and
`seats` (which phone holds which seat, their presses, the arbitration's wait). docs/PHONE_BUTTONS.md."""
