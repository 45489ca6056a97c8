// Big tile icons (70px at scale 1, spec section 9). Decorative: each tile has its own title.

export function ResultIcon() {
  return (
    <svg className="big-icon" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <path d="M16 6h22l12 12v38a2 2 0 0 1-2 2H16a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z" className="big-icon__fill" />
      <path d="M38 6v12h12" className="big-icon__line" />
      <path d="M22 38l7 7 14-15" className="big-icon__accent" />
    </svg>
  );
}

export function PatientIcon() {
  return (
    <svg className="big-icon" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="20" r="11" className="big-icon__fill" />
      <path d="M10 58c0-12 10-20 22-20s22 8 22 20z" className="big-icon__fill" />
      <path d="M32 52l-6-6a4 4 0 0 1 6-5 4 4 0 0 1 6 5z" className="big-icon__accent-fill" />
    </svg>
  );
}

export function CopyIcon() {
  return (
    <svg className="big-icon" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <path d="M10 14h26a2 2 0 0 1 2 2v40a2 2 0 0 1-2 2H10a2 2 0 0 1-2-2V16a2 2 0 0 1 2-2z" className="big-icon__fill" />
      <path d="M22 6h30a2 2 0 0 1 2 2v38" className="big-icon__line" />
      <path d="M15 28h16M15 36h16M15 44h10" className="big-icon__accent" />
    </svg>
  );
}
