import FamilyService
import KindredRuntime

await ServiceMain.run(FamilyService.definition)
