"""The display, a leaf that draws snapshots: `compose` picks a frame's scene by phase and role, `scenes/` and
`roles/` draw, `render/` paints (canvas, fitted text, tiles, the fade), `theme/` loads and checks the look, `media/`
shows the question's pictures, video and sounds, `screens` opens one window per role. It imports no links,
tournament, session or app: what it draws arrives as arguments."""
