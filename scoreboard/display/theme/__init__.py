"""Visual themes: loading and checking (`load`), the built-in values and words (`builtin`), whether the hall can
read it (`legibility`, `contrast`, `colorvision`, `fontcover`), starter themes and live reload."""
