# An agent script in the course's shape: importing it plays the game.
import STcpClient_1 as STcpClient

import common

made = 0


def Getstep(mapStat, gameStat):
    common.check_stats(mapStat, gameStat, made)
    return common.pick(mapStat)


while True:
    (end_program, id_package, mapStat, gameStat) = STcpClient.GetBoard()
    if end_program:
        break
    Step = Getstep(mapStat, gameStat)
    made += 1
    STcpClient.SendStep(id_package, Step)
