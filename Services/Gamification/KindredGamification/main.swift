import GamificationService
import KindredRuntime

await ServiceMain.run(GamificationService.definition)
