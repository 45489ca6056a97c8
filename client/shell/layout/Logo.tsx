/** The portal mark: a pink ribbon in a circle. Decorative: the portal name sits next to it. */
export function Logo() {
  return (
    <svg className="logo" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="23" className="logo__disc" />
      <path
        className="logo__ribbon"
        d="M24 9c-4.6 0-7.6 3.6-7.6 7.8 0 3.4 1.9 7 4.4 10.6L13 38.6l4.4 2.4 6.6-9.4 6.6 9.4 4.4-2.4-7.8-11.2c2.5-3.6 4.4-7.2 4.4-10.6C31.6 12.6 28.6 9 24 9zm0 5c1.8 0 2.8 1.3 2.8 3 0 1.9-1.1 4.4-2.8 7.1-1.7-2.7-2.8-5.2-2.8-7.1 0-1.7 1-3 2.8-3z"
      />
    </svg>
  );
}
