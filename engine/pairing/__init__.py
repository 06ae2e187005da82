"""Tournament pairing and standings (issue 25): McMahon, Swiss and round robin, as OpenGotha."""
