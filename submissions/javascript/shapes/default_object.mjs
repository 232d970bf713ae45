// `export default { Router, h32 }`: an object of exports as the default.

import impl from './_router.cjs';

const { Router, h32 } = impl;
export default { Router, h32 };
