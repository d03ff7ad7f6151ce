import IdentityService
import KindredRuntime

await ServiceMain.run(IdentityService.definition)
