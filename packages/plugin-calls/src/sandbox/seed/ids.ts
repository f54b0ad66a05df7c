// Fixed identifiers: the plugin's examples use them, so describe_method examples work against the sandbox.

export const IDS = {
  harbor: 'ACC1f4c9a2e7b3d4c5f8a6e0b9d2c7f1a3e',
  summit: 'ACC8e2d6b1a9c7f4e3d5b0a8c6f4e2d1b9a',
  downtown: 'COM7d2b5e8a1c4f4b9e8d3a6c0f2e5b7a91',
  westside: 'COM3a9f1c6e2b8d4a7f9c5e1b3d7a2f6c84',
  denver: 'COM5e8c2a7f1d9b4e6a3c8f2d5b1e9a7c62',
  boulder: 'COM9b1d4f7a3e6c4d2b8f5a1e9c3d7b6a28',
  googleTracker: 'TRK4b8e1f5a9c2d4e7b8a6f3c1d9e5b2a70',
  firstCall: 'CAL0c8e4d2a6f1b4e7c9a3d5f8b2e6c1a47',
  firstUser: 'USR2c7a9e4b1d6f4c3a8e5b2d9f1c7a4e63',
  firstForm: 'FOR6a1d3c8e5b2f4a9d7c4e1b8f3a6d2c05',
  firstThread: 'SMT9d4a7c2e5b8f4a1d6c3e9b7f2a5d8c16',
  firstCallerId: 'CID3e8b1d6a4c9f4e2b7a5d8c1f6e3b9a04',
} as const;
