// `export { Router as default }`.

import impl from './_router.cjs';

const { Router, h32 } = impl;
export { Router as default, h32 };
