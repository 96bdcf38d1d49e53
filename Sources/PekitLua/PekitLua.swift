import PekitCore
