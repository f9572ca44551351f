"""Look and feel shared by every scene and board: colours, fonts, widgets."""
